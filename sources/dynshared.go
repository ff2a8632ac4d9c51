package sources

import (
	"github.com/hipgen/hipgen/diag"
	"github.com/hipgen/hipgen/sources/lex"
)

// Dynamic shared memory under --launch=ggl. HIP-CPU, the reason for ggl
// launches, has no extern __shared__ (its __shared__ is thread_local): it
// provides HIP_DYNAMIC_SHARED(type, name), which declares name as a
// pointer to the block's dynamic shared memory inside a function body.
// hipcc's hip_runtime.h defines the same macro as "extern __shared__ type
// name[];", so the rewrite changes nothing for AMD GPUs. An alignment
// (__align__(N), alignas(N), __attribute__((aligned(N)))) has no place in
// HIP_DYNAMIC_SHARED: HIPGEN_DYNAMIC_SHARED_ALIGNED keeps it for hipcc,
// and HIP-CPU's storage comes from operator new (16-byte aligned).
// Chevron mode keeps extern __shared__, which hipcc accepts.

const dynamicSharedAligned = "HIPGEN_DYNAMIC_SHARED_ALIGNED"

// dynamicSharedMacro is the polyfill entry that defines the aligned form.
var dynamicSharedMacro = polyfill{name: dynamicSharedAligned, code: `#if defined(__HIP_CPU_RT__)
#define ` + dynamicSharedAligned + `(align, type, name) HIP_DYNAMIC_SHARED(type, name)
#else
#define ` + dynamicSharedAligned + `(align, type, name) extern __shared__ __attribute__((aligned(align))) type name[];
#endif`}

// dynamicShared rewrites "extern __shared__ [alignment] T name[];" whose
// extern is at k. It leaves every token of the alignment and of T in place,
// so they are translated like any other code.
func (t *translator) dynamicShared(k int) {
	if !t.startsStatement(k) {
		return // not a declaration of its own: in brackets, say, where no rewrite is safe
	}
	alignFirst, alignLast, j := t.sharedAlignment(k + 2)
	if j < 0 {
		return
	}
	// The type runs up to the first declarator: name [ ] followed by , or ;
	typeFirst := j
	for ; j < len(t.toks) && j < typeFirst+32; j++ {
		if t.tok(j).Kind == lex.Ident && t.is(j+1, "[") && t.is(j+2, "]") && (t.is(j+3, ";") || t.is(j+3, ",")) {
			break
		}
		if t.is(j, ";") || t.is(j, "{") || t.is(j, "=") || t.launchBracket(j) != 0 ||
			t.isByte(j, ')') || t.isByte(j, ']') || t.isByte(j, '}') {
			return // not a dynamic shared array (a sized one, or something else)
		}
		if t.isByte(j, '(') {
			// Only decltype and typeof put parentheses in a type; after
			// anything else they are a call (a launch once rewritten),
			// and no rewrite is safe.
			c := t.br.Close[j]
			if c < 0 || !t.is(j-1, "decltype") && !t.is(j-1, "__typeof__") && !t.is(j-1, "typeof") {
				return
			}
			j = int(c)
		}
	}
	if j == typeFirst || !t.is(j+1, "[") {
		return
	}
	typeLast := j - 1
	if alignFirst >= 0 && alignLast < alignFirst || t.topLevelComma(typeFirst, typeLast) || alignFirst >= 0 && t.topLevelComma(alignFirst, alignLast) {
		t.report(k, diag.Warning, "launch", "extern __shared__ left as is: a comma in its type or alignment would split the arguments of HIP_DYNAMIC_SHARED; declare it through a type alias for HIP-CPU")
		return
	}
	if !t.inFunctionBody(k) {
		t.report(k, diag.Warning, "launch", "extern __shared__ outside a function left as is: HIP-CPU's HIP_DYNAMIC_SHARED declares the variable in a function body only (hipcc accepts either); declare it in the kernel for HIP-CPU")
		return
	}
	// The declarators: name[] (, name[])* ;
	names := []int{j}
	for !t.is(names[len(names)-1]+3, ";") {
		next := names[len(names)-1] + 4
		if t.tok(next).Kind != lex.Ident || !t.is(next+1, "[") || !t.is(next+2, "]") || !t.is(next+3, ";") && !t.is(next+3, ",") {
			t.report(k, diag.Warning, "launch", "extern __shared__ left as is: its declarators are not a plain list of name[]")
			return
		}
		names = append(names, next)
	}
	open := "HIP_DYNAMIC_SHARED("
	if alignFirst >= 0 {
		open = dynamicSharedAligned + "("
		t.edits = append(t.edits, edit{int(t.tok(k).Start), int(t.tok(alignFirst).Start), open})
		t.edits = append(t.edits, edit{int(t.tok(alignLast).End), int(t.tok(typeFirst).Start), ", "})
		t.notePolyfill(dynamicSharedAligned, int(t.tok(k).Start))
	} else {
		t.edits = append(t.edits, edit{int(t.tok(k).Start), int(t.tok(typeFirst).Start), open})
	}
	t.edits = append(t.edits, edit{int(t.tok(typeLast).End), int(t.tok(j).Start), ", "})
	// "a[], b[];" becomes one macro per name. The later ones take the
	// type and alignment of the first by __typeof__ and __alignof__, not
	// as copies of the source text, which would escape translation.
	first := string(t.text(j))
	again := ") " + open
	if alignFirst >= 0 {
		again += "__alignof__(" + first + "), "
	}
	again += "__typeof__(" + first + "[0]), "
	for i, n := range names[:len(names)-1] {
		t.edits = append(t.edits, edit{int(t.tok(n).End), int(t.tok(names[i+1]).Start), again})
	}
	last := names[len(names)-1]
	t.edits = append(t.edits, edit{int(t.tok(last).End), int(t.tok(last + 3).End), ")"})
	msg := "extern __shared__ became " + open[:len(open)-1] + ": HIP-CPU, which --launch=ggl targets, has no extern __shared__; hipcc defines the macro as the same declaration"
	if alignFirst >= 0 {
		msg += ", with the alignment"
	}
	t.report(k, diag.Note, "launch", msg)
}

// sharedAlignment reads an alignment at j, just after __shared__:
// __align__(N), alignas(N) or __attribute__((aligned(N))). It returns the
// first and last tokens of N (-1, -1 when there is none) and where the type
// starts, or j < 0 when the alignment is malformed.
func (t *translator) sharedAlignment(j int) (first, last, next int) {
	switch {
	case t.is(j, "__align__") || t.is(j, "alignas"):
		close := t.matching(j + 1)
		if close < 0 {
			return -1, -1, -1
		}
		return j + 2, close - 1, close + 1
	case t.is(j, "__attribute__") && t.is(j+1, "(") && t.is(j+2, "(") && t.is(j+3, "aligned") && t.is(j+4, "("):
		close := t.matching(j + 4)
		if close < 0 || !t.is(close+1, ")") || !t.is(close+2, ")") {
			return -1, -1, -1
		}
		return j + 5, close - 1, close + 3
	}
	return -1, -1, j
}

// topLevelComma reports whether significant tokens first..last hold a
// comma outside brackets (template argument lists included).
func (t *translator) topLevelComma(first, last int) bool {
	depth := 0
	for i := first; i <= last; i++ {
		switch string(t.text(i)) {
		case "(", "[", "{", "<":
			depth++
		case ")", "]", "}", ">":
			depth--
		case ">>":
			depth -= 2
		case ",":
			if depth == 0 {
				return true
			}
		}
	}
	return false
}

// inFunctionBody reports whether significant token k lies inside a
// function body: one of the braces around it follows a ")" (a parameter
// list, or an if/for/while inside a body), unlike those of a namespace,
// extern "C" or a class.
func (t *translator) inFunctionBody(k int) bool {
	for i := t.openAround(k); i >= 0; i = t.openAround(i) {
		if t.is(i-1, ")") || t.is(i-1, "const") || t.is(i-1, "noexcept") || t.is(i-1, "mutable") {
			return true
		}
	}
	return false
}

// startsStatement reports whether significant token k begins a statement or
// declaration: it is the first token, or follows ;, {, }, a label's colon
// or a preprocessor line.
func (t *translator) startsStatement(k int) bool {
	if k == 0 {
		return true
	}
	if t.tok(k-1).Directive && !t.tok(k).Directive {
		return true
	}
	return t.isByte(k-1, ';') || t.isByte(k-1, '{') || t.isByte(k-1, '}') || t.isByte(k-1, ':')
}
