package sources

import (
	"bytes"
	"sync"

	"github.com/hipgen/hipgen/diag"
	"github.com/hipgen/hipgen/sources/hipmap"
	"github.com/hipgen/hipgen/sources/lex"
)

// half2MembersFrom is the ROCm release whose __half2 has CUDA's members:
// before it, x and y are unsigned short, the raw bits of each half
// (amd_hip_fp16.h to ROCm 5.7), so that __half2float(v.x) converts the
// bits as an integer (1.5 reads 15872) and v.x = h stores h's value
// truncated to an integer: silently wrong, where CUDA's x and y are
// __half.
var half2MembersFrom = hipmap.Version{Major: 6, Minor: 0}

// half2MemberKey is the polyfill key of half2Member.
const half2MemberKey = "(__half2 members x and y as __half)"

// half2Member gives __half2's x and y as __half, by reference, as CUDA's
// members are: reads, stores and addresses all see the half. Overloads
// for __half2 (lvalue, const, rvalue) reinterpret the member's bits, which
// __half holds in a union with unsigned short; any other type gets its own
// member through the template, so that a name taken for a __half2 that is
// another type in some scope keeps its meaning. HIP-CPU's __half2 has
// CUDA's members (accessors of half values): the template serves it.
var half2Member = polyfill{name: "hipgen_half2_x",
	why: "ROCm before 6.0 gives __half2's x and y as unsigned short, the raw bits of each half, where CUDA's are __half (reading them converts the bits as an integer, storing a __half truncates its value); a function that gives the member as a __half, by reference, stands in",
	code: `#include <hip/hip_fp16.h>
template <class T>
__host__ __device__ static inline auto hipgen_half2_x(T&& v) -> decltype((static_cast<T&&>(v).x)) { return static_cast<T&&>(v).x; }
template <class T>
__host__ __device__ static inline auto hipgen_half2_y(T&& v) -> decltype((static_cast<T&&>(v).y)) { return static_cast<T&&>(v).y; }
#if !defined(__HIP_CPU_RT__)
__host__ __device__ static inline __half& hipgen_half2_x(__half2& v) { return *reinterpret_cast<__half*>(&v.x); }
__host__ __device__ static inline __half& hipgen_half2_y(__half2& v) { return *reinterpret_cast<__half*>(&v.y); }
__host__ __device__ static inline const __half& hipgen_half2_x(const __half2& v) { return *reinterpret_cast<const __half*>(&v.x); }
__host__ __device__ static inline const __half& hipgen_half2_y(const __half2& v) { return *reinterpret_cast<const __half*>(&v.y); }
__host__ __device__ static inline __half hipgen_half2_x(__half2&& v) { return *reinterpret_cast<const __half*>(&v.x); }
__host__ __device__ static inline __half hipgen_half2_y(__half2&& v) { return *reinterpret_cast<const __half*>(&v.y); }
#endif`}

// half2MemberUse rewrites, for ROCm before 6.0, the member x or y at k of
// a value the file shows to be a __half2 (or half2): "v.x", "a[i].y",
// "s.h.x", "p->x", "get(i).h.x" become hipgen_half2_x(v),
// hipgen_half2_y(a[i]), hipgen_half2_x(s.h), hipgen_half2_x(*p) and
// hipgen_half2_x(get(i).h) (see half2Member). The value is told by what
// ends the expression before the member, outside subscripts: a name the
// file declares with the type, or with a dependent type (see
// half2Names); a call of a function the file declares returning it, or
// of one of CUDA's that return a __half2 (half2Results); or a cast to it
// or a pointer to it. Where a guess is wrong, the overloads of
// half2Member give the other type its own member.
func (t *translator) half2MemberUse(k int) {
	arrow := t.is(k-1, "->")
	if !arrow && !t.isByte(k-1, '.') || !t.ver.Less(half2MembersFrom) || t.isByte(k+1, '(') {
		return // not a member, or a member function x() (which __half2 lacks)
	}
	if r := t.plainReceiver(k); r >= 0 {
		switch string(t.text(r)) {
		case "threadIdx", "blockIdx", "blockDim", "gridDim":
			return // CUDA's built-in index variables, the usual x and y
		}
	}
	names := t.half2Names()
	if len(names) == 0 && !t.isByte(k-2, ')') {
		return // nothing declared a __half2, and no call or cast ends the value
	}
	start := t.half2Value(k-2, names)
	if start < 0 {
		return
	}
	open := "hipgen_half2_" + string(t.text(k)) + "("
	if arrow {
		open += "*"
	}
	t.insert(int(t.tok(start).Start), open)
	t.edits = append(t.edits, edit{int(t.tok(k - 1).Start), int(t.tok(k).End), ")"})
	t.needRuntime = true
	t.notePolyfill(half2MemberKey, int(t.tok(k).Start))
	t.report(k, diag.Note, "polyfill", "the members x and y of a __half2 became hipgen_half2_x(...) and hipgen_half2_y(...): "+half2Member.why+"; hipgen knows a __half2 by its declaration in the file (with half2, or a template's type parameter or dependent alias, which may be half2), by a call of a function declared returning one or of CUDA's __half2 functions, or by a cast: check x and y of values it cannot see, such as the result of a function declared elsewhere"+oncePerFile)
}

// half2Value returns the first token of the postfix expression that ends
// at j, before a member x or y, when that expression is a __half2 (see
// half2MemberUse), or -1. The expression is names joined by '.', '->'
// or '::', each perhaps called or indexed, or a parenthesized expression
// or a cast, indexed.
func (t *translator) half2Value(j int, names map[string]bool) int {
	dir := t.tok(j + 1).Directive
	start, known := -1, false
	for first := true; j >= 0; first = false {
		for t.isByte(j, ']') {
			o := t.matchingBack(j)
			if o < 0 || !t.nested(o, j) {
				return -1
			}
			j = o - 1
		}
		if j < 0 || t.tok(j).Directive != dir {
			return -1
		}
		if t.isByte(j, ')') {
			o := t.matchingBack(j)
			if o < 0 || !t.nested(o, j) {
				return -1
			}
			if o == 0 || t.tok(o-1).Directive != dir || t.tok(o-1).Kind != lex.Ident || cppKeywords()[string(t.text(o-1))] {
				// A cast, "reinterpret_cast<half2*>(p)" or "((half2*)p)",
				// or a parenthesized expression: it starts the postfix
				// expression, and must be a __half2 where the member
				// is its own.
				c := t.castStart(o, first)
				if c < 0 || !first && !known {
					return -1
				}
				return c
			}
			// A call: the function's name goes on the chain.
			if first {
				known = t.half2Result(string(t.text(o - 1)))
			}
			j = o - 1
		} else {
			tk := t.tok(j)
			if tk.Kind != lex.Ident {
				return -1
			}
			if first {
				known = names[string(t.text(j))]
			}
		}
		start = j
		if t.isByte(j-1, '.') || t.is(j-1, "->") || t.is(j-1, "::") {
			j -= 2
			continue
		}
		break
	}
	if !known || start < 0 || cppKeywords()[string(t.text(start))] && !t.is(start, "this") {
		return -1
	}
	return start
}

// nested reports whether the parentheses and brackets strictly between
// the tokens open and close pair up among themselves: matchingBack pairs
// one kind only, and an expression whose "a[ ... ]" holds a ')' it does
// not open ("a[))(]") reaches into another (FuzzTranslate: the member
// after it was wrapped across the brackets, and the next translation
// wrapped the member after that).
func (t *translator) nested(open, close int) bool {
	var stack []byte
	for i := open + 1; i < close; i++ {
		switch c := t.tok(i); {
		case c.End-c.Start != 1:
		case t.isByte(i, '(') || t.isByte(i, '['):
			stack = append(stack, t.src[c.Start])
		case t.isByte(i, ')') || t.isByte(i, ']'):
			want := byte('(')
			if t.isByte(i, ']') {
				want = '['
			}
			if len(stack) == 0 || stack[len(stack)-1] != want {
				return false
			}
			stack = stack[:len(stack)-1]
		}
	}
	return len(stack) == 0
}

// castStart returns where the cast or parenthesized expression whose
// parenthesis opens at o starts: the keyword of "static_cast<T>(v)", or o
// for "((T)p)" and "(e)". With half2 the type must be __half2 or half2
// (or a pointer or reference to it), else it returns -1.
func (t *translator) castStart(o int, half2 bool) int {
	half2Type := func(from, to int) bool { // the tokens [from, to) name the type
		found := false
		for j := from; j < to; j++ {
			switch {
			case t.is(j, "half2") || t.is(j, "__half2"):
				found = true
			case t.is(j, "const") || t.is(j, "volatile") || t.isByte(j, '*') || t.isByte(j, '&') || t.is(j, "&&") || t.is(j, "__restrict__"):
			default:
				return false
			}
		}
		return found
	}
	if o > 0 && t.tok(o-1).Directive == t.tok(o).Directive && t.isByte(o-1, '>') {
		if l := t.templateOpenBack(o - 1); l > 0 {
			switch string(t.text(l - 1)) {
			case "static_cast", "reinterpret_cast", "const_cast", "bit_cast":
				if !half2 || half2Type(l+1, o-1) {
					return l - 1
				}
			}
		}
		return -1
	}
	if !half2 {
		return o
	}
	if t.isByte(o+1, '(') {
		if c := t.matching(o + 1); c > 0 && half2Type(o+2, c) {
			return o
		}
	}
	return -1
}

// half2Names returns the names the file declares with the type __half2
// or half2 (variables, parameters, members, pointers and arrays of it),
// or nil. In a file that names half2, values of a dependent type count
// too: of a template's type parameter, or of an alias of a dependent type
// ("using T2 = typename TypeConverter<T>::Type;"), which fp16 kernels
// instantiate with half2 (HeCBench's addBiasResidualLayerNorm): the
// overloads of half2Member keep any other type's member.
func (t *translator) half2Names() map[string]bool {
	f := t.facts
	f.half2Once.Do(func() {
		// Where the word occurs (a few places): the declarations with the
		// type, and whether the file gives it to a template or an alias
		// ("<half, half2>", "using Type = half2;"), when values of a
		// dependent type may be half2 too.
		var at []int
		generic := false
		t.eachHalf2(func(i int) {
			at = append(at, i)
			generic = generic || t.isByte(i-1, '<') || t.isByte(i-1, ',') || t.isByte(i-1, '=')
		})
		if !generic {
			for _, i := range at {
				t.half2Declarators(i, &f.half2, &f.half2Funcs)
			}
			t.half2Autos(&f.half2)
			return
		}
		// One pass: C++ declares a type before its values, so a dependent
		// type joins the set where its declaration is. A quick test comes
		// before the map: the first byte and the length of the names.
		types := map[string]bool{}
		var first [256]bool
		var length [64]bool
		// look holds the lengths worth a look: the types' and the
		// keywords' (class and using, typedef, typename).
		var look [64]bool
		look[5], look[7], look[8] = true, true, true
		addType := func(n []byte) {
			types[string(n)] = true
			first[n[0]] = true
			if len(n) < len(length) {
				length[len(n)], look[len(n)] = true, true
			}
		}
		addType([]byte("half2"))
		addType([]byte("__half2"))
		toks := t.toks
		for i := range toks {
			tk := &toks[i]
			n := tk.End - tk.Start
			if tk.Kind != lex.Ident || uint32(n) >= uint32(len(look)) || !look[n] {
				continue
			}
			switch {
			case n == 8 && t.is(i, "typename") || n == 5 && t.is(i, "class"):
				if t.tok(i+1).Kind == lex.Ident && (t.isByte(i-1, '<') || t.isByte(i-1, ',')) &&
					(t.isByte(i+2, ',') || t.isByte(i+2, '>') || t.isByte(i+2, '=')) {
					addType(t.text(i + 1)) // a template's type parameter
				}
				continue
			case n == 5 && t.is(i, "using"):
				if t.tok(i+1).Kind == lex.Ident && t.isByte(i+2, '=') && t.is(i+3, "typename") {
					addType(t.text(i + 1))
				}
				continue
			case n == 7 && t.is(i, "typedef"):
				if t.is(i+1, "typename") {
					if e := t.declaratorEnd(i + 2); t.isByte(e, ';') && t.tok(e-1).Kind == lex.Ident {
						addType(t.text(e - 1))
					}
				}
				continue
			}
			if length[n] && first[t.src[tk.Start]] && types[string(t.text(i))] {
				t.half2Declarators(i, &f.half2, &f.half2Funcs)
			}
		}
		t.half2Autos(&f.half2)
	})
	return f.half2
}

// eachHalf2 calls f with the position of each identifier half2 or
// __half2, in order: one search for the bytes "half2" finds both.
func (t *translator) eachHalf2(f func(j int)) {
	if !t.mayName("half2") && !t.mayName("__half2") {
		return
	}
	for off := 0; ; off += len("half2") {
		if off = indexText(t.src, "half2", off); off < 0 {
			return
		}
		start := off
		if off >= 2 && t.src[off-1] == '_' && t.src[off-2] == '_' {
			start = off - 2
		}
		if j := t.tokenAt(start); j >= 0 && t.toks[j].Kind == lex.Ident && int(t.toks[j].End) == off+len("half2") {
			f(j)
		}
	}
}

// half2Autos adds to *names, in a file that names half2 or __half2, the
// variables declared auto from a __half2: "auto s = __hadd2(a, b);",
// "const auto v = h2;" with h2 in *names.
func (t *translator) half2Autos(names *map[string]bool) {
	t.eachUse([]byte("auto"), func(i int) bool {
		j := i + 1
		for t.is(j, "const") || t.isByte(j, '&') || t.is(j, "&&") {
			j++
		}
		if t.tok(j).Kind != lex.Ident || !t.isByte(j+1, '=') {
			return true
		}
		r := j + 2
		for t.is(r+1, "::") && t.tok(r+2).Kind == lex.Ident {
			r += 2
		}
		name := string(t.text(r))
		if t.isByte(r+1, '(') && t.half2Result(name) || t.isByte(r+1, ';') && (*names)[name] {
			if *names == nil {
				*names = map[string]bool{}
			}
			(*names)[string(t.text(j))] = true
		}
		return true
	})
}

// half2Result reports whether a call of the function name gives a
// __half2: one of CUDA's (half2Results), a function the file declares
// returning one, or the type's own constructor. half2Names must have run.
func (t *translator) half2Result(name string) bool {
	return half2Results()[name] || t.facts.half2Funcs[name]
}

// half2Results are CUDA's functions that return a __half2 whatever their
// arguments, and the type's names (a functional cast, "__half2(a, b)").
var half2Results = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"half2": true, "__half2": true, "make_half2": true,
		"__float2half2_rn": true, "__floats2half2_rn": true, "__float22half2_rn": true, "__halves2half2": true, "__half2half2": true,
		"__lows2half2": true, "__highs2half2": true, "__low2half2": true, "__high2half2": true, "__lowhigh2highlow": true,
		"__hadd2": true, "__hadd2_sat": true, "__hadd2_rn": true, "__hsub2": true, "__hsub2_sat": true, "__hsub2_rn": true,
		"__hmul2": true, "__hmul2_sat": true, "__hmul2_rn": true, "__h2div": true, "__hfma2": true, "__hfma2_sat": true, "__hfma2_relu": true,
		"__hneg2": true, "__habs2": true, "__hmax2": true, "__hmin2": true, "__hmax2_nan": true, "__hmin2_nan": true, "__hcmadd": true,
		"h2sqrt": true, "h2rsqrt": true, "h2rcp": true, "h2exp": true, "h2exp2": true, "h2exp10": true, "h2log": true, "h2log2": true, "h2log10": true,
		"h2sin": true, "h2cos": true, "h2ceil": true, "h2floor": true, "h2rint": true, "h2trunc": true,
		"__heq2": true, "__hne2": true, "__hle2": true, "__hge2": true, "__hlt2": true, "__hgt2": true,
		"__hequ2": true, "__hneu2": true, "__hleu2": true, "__hgeu2": true, "__hltu2": true, "__hgtu2": true, "__hisnan2": true,
	}
})

// half2Declarators adds to *names the names declared after the type at
// i: "half2 a, *b, c[4];", a parameter "const half2& v)", a member; and
// to *funcs a function's name, "half2 f(". A template's argument
// ("<half2>") declares nothing.
func (t *translator) half2Declarators(i int, names, funcs *map[string]bool) {
	if t.isByte(i-1, '<') && t.isByte(i+1, '>') {
		return
	}
	t.declarators(i, func(j, next int, first, _ bool) bool {
		if bytes.HasPrefix(t.text(j), []byte("hipgen_half2_")) {
			return false // hipgen's own accessor, where a member was rewritten in a declarator ("half2 a[].x"): it gives a __half
		}
		if first && t.isByte(next, '(') {
			// A function returning the type ("half2 f(float a)"), or a
			// variable initialised so ("half2 v(a, b);"): a name for a
			// call, or for a value (the other use cannot occur).
			if *funcs == nil {
				*funcs = map[string]bool{}
			}
			(*funcs)[string(t.text(j))] = true
		}
		if !(t.isByte(next, ';') || t.isByte(next, '=') || t.isByte(next, ',') || t.isByte(next, '[') ||
			first && (t.isByte(next, ')') || t.isByte(next, '{') || t.isByte(next, ':') || t.isByte(next, '('))) {
			return false
		}
		if *names == nil {
			*names = map[string]bool{}
		}
		(*names)[string(t.text(j))] = true
		return true
	})
}

// declarators calls f for each declarator after the type at i, "T a, *b,
// c[4] = {1};" or a parameter "const T& v)", with the position of its
// name, the token after the name, whether it is the first, and whether a
// '*' came before the name (past const, volatile, __restrict__ and '&'),
// until f returns false, or a declarator does not start with a name, or
// one is not followed by a ','.
func (t *translator) declarators(i int, f func(name, next int, first, pointer bool) bool) {
	for j, first := i+1, true; ; first = false {
		pointer := false
		for t.is(j, "const") || t.is(j, "volatile") || t.is(j, "__restrict__") || t.isByte(j, '*') || t.isByte(j, '&') {
			pointer = pointer || t.isByte(j, '*')
			j++
		}
		if t.tok(j).Kind != lex.Ident || cppKeywords()[string(t.text(j))] || !f(j, j+1, first, pointer) {
			return
		}
		next := t.declaratorEnd(j + 1)
		if !t.isByte(next, ',') || t.tok(j).Directive {
			return
		}
		j = next + 1
	}
}

// declaratorEnd returns, from the token k after a declarator's name, the
// ',' or ';' that ends the declarator (past array bounds and an
// initializer), or k when there is none.
func (t *translator) declaratorEnd(k int) int {
	for j, depth := k, 0; j < len(t.toks) && !t.tok(j).Directive == !t.tok(k).Directive; j++ {
		switch {
		case t.isByte(j, '(') || t.isByte(j, '[') || t.isByte(j, '{'):
			depth++
		case t.isByte(j, ')') || t.isByte(j, ']') || t.isByte(j, '}'):
			if depth--; depth < 0 {
				return k
			}
		case depth == 0 && (t.isByte(j, ',') || t.isByte(j, ';')):
			return j
		}
	}
	return k
}

// half2EmptyAssign gives the type to "v = {}" at k, v a name the file
// declares as a __half2: HIP's __half2 has assignments from __half2 and
// from __half2_raw, which an empty list both fit (clang: "use of
// overloaded operator '=' is ambiguous"), where nvcc's device code sets v
// to zero (HeCBench's quant3MatMul kernel; CUDA 11.8's host compiler finds
// it ambiguous too). "v = __half2{}" is that zero.
func (t *translator) half2EmptyAssign(k int) {
	if !t.half2Names()[string(t.text(k))] || t.isByte(k-1, '.') || t.is(k-1, "->") || t.is(k-1, "::") {
		return
	}
	// A member's name before v ("p.x v") is no type: the member access may
	// become a call (hipgen_half2_x), and the next translation would see
	// no declaration there.
	member := t.isByte(k-2, '.') || t.is(k-2, "->")
	if p := t.tok(k - 1); p.Kind == lex.Ident && !cppKeywords()[string(t.text(k-1))] && !member || t.isByte(k-1, '*') || t.isByte(k-1, '&') {
		return // a declaration: "half2 v = {};" initialises, without the ambiguity
	}
	t.insert(int(t.tok(k+2).Start), "__half2")
	t.report(k+2, diag.Note, "call-fix", "v = {} became v = __half2{} for a __half2 v: HIP's __half2 has two assignments an empty list fits (nvcc's device code takes it), and both forms set v to zero"+oncePerFile)
	if body := t.functionBody(k); body >= 0 {
		if device, host := t.declaredSpace(body); !device || host {
			// Host code now names the type, which the next run of the
			// translation would take for host code computing with it.
			t.halfHostNamed(k + 2)
		}
	}
}
