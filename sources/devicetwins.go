package sources

import (
	"github.com/hipgen/hipgen/diag"
	"github.com/hipgen/hipgen/sources/lex"
)

// A name can have one definition per pass of the compiler:
//
//	#ifdef __CUDA_ARCH__
//	__device__ uint32_t swab32(uint32_t x) { return __byte_perm(x, x, 0x0123); }
//	#else
//	#define swab32(x) ...
//	#endif
//
// nvcc's device pass never looks at host functions, so a host function
// calling swab32 finds the macro in the host pass and is not checked in
// the device pass. clang checks every function in both passes, and in the
// device pass the host function's call finds a __device__ function, which
// host code may not call: "no matching function for call to 'swab32'".
// The device twin is made __host__ __device__: in the device pass host
// code may then call it (nothing of the host is generated there), and the
// host pass still sees only the #else branch.

// deviceTwins handles an #if, #ifdef or #ifndef at k whose first branch
// is compiled in one pass only (its frame f): when the chain is that branch
// and an #else, each function declared __device__ (neither __host__ nor
// __global__) in the device pass's branch whose name the host pass's
// branch defines too (as a macro or a function) becomes __host__
// __device__.
func (t *translator) deviceTwins(k int, f condFrame) {
	if !f.device && !f.host {
		return
	}
	mid := t.condBlockEnd(k + 1)
	if mid >= len(t.toks) || !t.is(mid+1, "else") {
		return
	}
	end := t.condBlockEnd(mid + 1)
	if end >= len(t.toks) || !t.is(end+1, "endif") {
		return
	}
	dev, host := [2]int{k + 1, mid}, [2]int{mid + 1, end}
	if f.host {
		dev, host = host, dev
	}
	var names map[string]bool // defined by the host branch
	for i := host[0]; i < host[1]; i++ {
		if t.isByte(i, '{') && !t.tok(i).Directive {
			if c := t.matching(i); c > i {
				i = c // a body: calls, not definitions
			}
			continue
		}
		name := -1
		if t.directiveStart(i) && t.is(i+1, "define") && t.tok(i+2).Kind == lex.Ident && t.tok(i+2).Directive {
			name = i + 2
		} else if _, ok := t.functionName(i); ok {
			name = i
		}
		if name >= 0 {
			if names == nil {
				names = map[string]bool{}
			}
			names[string(t.text(name))] = true
		}
	}
	if names == nil {
		return
	}
	for i := dev[0]; i < dev[1]; i++ {
		if t.isByte(i, '{') && !t.tok(i).Directive {
			if c := t.matching(i); c > i {
				i = c
			}
			continue
		}
		if !t.is(i, "__device__") || t.tok(i).Directive {
			continue
		}
		// The declaration's specifiers: from the end of the one before.
		start := i
		for start > dev[0] && !t.tok(start-1).Directive && !t.isByte(start-1, ';') && !t.isByte(start-1, '}') && !t.isByte(start-1, '{') {
			start--
		}
		name := -1
		for j := i + 1; j < dev[1] && !t.tok(j).Directive; j++ {
			if t.isByte(j, ';') || t.isByte(j, '{') || t.isByte(j, '=') || t.isByte(j, '}') {
				break
			}
			if t.isByte(j, '(') {
				if t.tok(j-1).Kind == lex.Ident {
					name = j - 1
				}
				break
			}
		}
		if name < 0 || !names[string(t.text(name))] {
			continue
		}
		other := false
		for j := start; j < name; j++ {
			other = other || t.is(j, "__host__") || t.is(j, "__global__")
		}
		if other {
			continue
		}
		t.insert(int(t.tok(i).Start), "__host__ ")
		t.report(i, diag.Note, checkCUDAArch, string(t.text(name))+" is __device__ here and defined again for the host pass: clang, unlike nvcc, checks host functions in the device pass too, where a host call would find only this __device__ function; it is made __host__ __device__ (the host pass still uses the other definition)")
	}
}

// functionName reports, for a function declared or defined with its name
// at i (an identifier after a type, before its parameter list, which a ;
// or a body follows), the position of the token after the parameter list.
func (t *translator) functionName(i int) (after int, ok bool) {
	if t.tok(i).Directive || t.tok(i).Kind != lex.Ident || !t.is(i+1, "(") {
		return 0, false
	}
	if prev := t.tok(i - 1); prev.Kind != lex.Ident && !t.is(i-1, "*") && !t.is(i-1, "&") {
		return 0, false
	}
	close := t.matching(i + 1)
	if close < 0 || !t.is(close+1, "{") && !t.is(close+1, ";") {
		return 0, false
	}
	return close + 1, true
}
