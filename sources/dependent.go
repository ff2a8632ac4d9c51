package sources

import (
	"sync"

	"github.com/hipgen/hipgen/diag"
	"github.com/hipgen/hipgen/sources/lex"
)

// Standard C++ needs the keyword template before the name of a member
// template of a dependent type: in a template over src_t and dst_t,
// "vec_cast<dst_t, src_t>::template cast<4>(d, s)". nvcc takes the call
// without it; clang reads "cast < 4 > (d, s)" as two comparisons and fails
// when the template is instantiated ("reference to overloaded function
// could not be resolved"). FlashInfer's vec_dtypes.cuh (HeCBench's
// attentionMultiHeadKVCache) calls so. The keyword is inserted where a
// qualified name is called with template arguments, the qualifier is
// dependent (a template's parameter, or a template-id that names one) and
// the file declares a function template of that name, so that a
// comparison of a static member ("X<T>::n < 4 > (y)") is left alone; the
// keyword is allowed where it is not needed (C++11), so a guess that the
// qualifier is dependent costs nothing.

// templateFacts are what a file's template declarations say: the names of
// its function templates, and the names of all template parameters.
type templateFacts struct {
	funcs, params map[string]bool
}

// dependentTemplate inserts template after the "::" at k, which comes
// before a name and a '<'.
func (t *translator) dependentTemplate(k int) {
	name := k + 1
	if cppKeywords()[string(t.text(name))] || t.is(name, "template") || t.is(name, "operator") {
		return
	}
	close := t.angleClose(k + 2)
	if close < 0 || !t.is(close, ">") || !t.isByte(close+1, '(') {
		return
	}
	facts := t.templateFacts()
	if !facts.funcs[string(t.text(name))] || !t.dependentQualifier(k, facts.params) {
		return
	}
	t.insert(int(t.tok(name).Start), "template ")
	t.report(name, diag.Note, "call-fix", "template inserted before "+string(t.text(name))+": a member template of a dependent type needs the keyword in standard C++; nvcc takes the call without it, clang (hipcc) reads the '<' as less than"+oncePerFile)
}

// dependentQualifier reports whether what ends at the "::" at k depends on
// one of params: a template-id with such an argument (X<T>::), or a bare
// parameter (T::).
func (t *translator) dependentQualifier(k int, params map[string]bool) bool {
	q := k - 1
	if t.tok(q).Kind == lex.Ident {
		return params[string(t.text(q))] && !t.is(q-1, "::") && !t.isByte(q-1, '.') && !t.is(q-1, "->")
	}
	if !t.is(q, ">") && !t.is(q, ">>") {
		return false
	}
	open := t.templateOpenBack(q)
	if open < 0 || t.tok(open-1).Kind != lex.Ident {
		return false
	}
	for j := open + 1; j < q; j++ {
		if t.tok(j).Kind == lex.Ident && params[string(t.text(j))] {
			return true
		}
	}
	return false
}

// angleClose returns the position of the '>' that closes the template
// argument list opened by the '<' at open (a '>>' that closes it and an
// outer one counts as its position too), or -1. Brackets inside are
// skipped whole; a ';', '{' or '}' first gives -1.
func (t *translator) angleClose(open int) int {
	depth := 0
	for j := open; j < len(t.toks) && j < open+256; j++ {
		switch {
		case t.isByte(j, '(') || t.isByte(j, '['):
			if m := t.matching(j); m > j {
				j = m
				continue
			}
			return -1
		case t.is(j, "<"):
			depth++
		case t.is(j, ">"):
			if depth--; depth == 0 {
				return j
			}
		case t.is(j, ">>"):
			if depth -= 2; depth <= 0 {
				return j
			}
		case t.isByte(j, ';') || t.isByte(j, '{') || t.isByte(j, '}') || t.isByte(j, ')') || t.isByte(j, ']'):
			return -1
		}
	}
	return -1
}

// templateFacts returns what the file's template declarations say (see
// templateFacts), found on first use.
func (t *translator) templateFacts() *templateFacts {
	f := t.facts
	f.templatesOnce.Do(func() {
		f.templates = templateFacts{funcs: map[string]bool{}, params: map[string]bool{}}
		t.eachUse([]byte("template"), func(i int) bool {
			if !t.is(i+1, "<") {
				return true
			}
			close := t.angleClose(i + 1)
			if close < 0 || !t.is(close, ">") {
				return true
			}
			t.templateParams(i+1, close, f.templates.params)
			if name := t.templatedFunction(close + 1); name >= 0 {
				f.templates.funcs[string(t.text(name))] = true
			}
			return true
		})
	})
	return &f.templates
}

// templateParams adds to params the names of the parameters declared
// between the '<' at open and the '>' at close: the last name of each
// parameter before its default ("typename T", "size_t N = 4", "class...
// Ts"; a template template parameter's own list is passed over).
func (t *translator) templateParams(open, close int, params map[string]bool) {
	last := -1
	inDefault := false
	for j := open + 1; j <= close; j++ {
		switch {
		case j == close || t.isByte(j, ','):
			if last >= 0 {
				params[string(t.text(last))] = true
			}
			last, inDefault = -1, false
		case t.isByte(j, '='):
			inDefault = true
		case t.is(j, "<") || t.isByte(j, '(') || t.isByte(j, '['):
			var end int
			if t.is(j, "<") {
				end = t.angleClose(j)
			} else {
				end = t.matching(j)
			}
			if end < 0 || end >= close {
				return
			}
			j = end
		case !inDefault && t.tok(j).Kind == lex.Ident && !cppKeywords()[string(t.text(j))] && !t.is(j, "class"):
			last = j
		}
	}
}

// templatedFunction returns the position of the name of the function that
// the declaration starting at k (after a template header) declares, or -1
// when it declares something else (a class, an alias, a variable).
func (t *translator) templatedFunction(k int) int {
	j := k
	for t.is(j, "template") && t.is(j+1, "<") { // a member template defined out of its class
		c := t.angleClose(j + 1)
		if c < 0 || !t.is(c, ">") {
			return -1
		}
		j = c + 1
	}
	depth := 0
	for end := j + 64; j < end && j < len(t.toks); j++ {
		switch {
		case t.is(j, "struct") || t.is(j, "class") || t.is(j, "union") || t.is(j, "using") || t.is(j, "typedef") || t.is(j, "concept"):
			if depth == 0 {
				return -1
			}
		case t.is(j, "<"):
			depth++
		case t.is(j, ">"):
			depth--
		case t.is(j, ">>"):
			depth -= 2
		case t.isByte(j, '['):
			if m := t.matching(j); m > j {
				j = m
				continue
			}
			return -1
		case t.isByte(j, '('):
			n := j - 1
			if depth == 0 && t.tok(n).Kind == lex.Ident && !declarationWords()[string(t.text(n))] {
				return n
			}
			if depth == 0 && t.is(n, ">") { // an explicit specialization, "cast<4>("
				if o := t.templateOpenBack(n); o > 0 && t.tok(o-1).Kind == lex.Ident {
					return o - 1
				}
				return -1
			}
			m := t.matching(j)
			if m < j {
				return -1
			}
			j = m
		case t.isByte(j, ';') || t.isByte(j, '{') || t.isByte(j, '}') || t.isByte(j, '=') || t.isByte(j, ')'):
			return -1
		}
	}
	return -1
}

// declarationWords are the names before a '(' in a declaration's
// specifiers that do not name what it declares.
var declarationWords = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"__attribute__": true, "__launch_bounds__": true, "__declspec": true, "alignas": true,
		"decltype": true, "noexcept": true, "requires": true, "operator": true, "explicit": true,
		"__align__": true, "__nv_pure__": true,
	}
})
