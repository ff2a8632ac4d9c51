package sources

import (
	"github.com/hipgen/hipgen/diag"
	"github.com/hipgen/hipgen/sources/lex"
)

// Before ROCm 5.7, nv_bfloat16 becomes the hip_bfloat16 class, whose
// constructor from float is explicit; CUDA's __nv_bfloat16 converts from
// float implicitly. The common case that breaks, "return __half2float(h);"
// in a function returning the bf16 type (candle's convert_from_half), gets
// the conversion written out. Other implicit conversions still fail in
// hipcc, as the table's note on nv_bfloat16 warns.

// floatResults are CUDA conversions that return float.
var floatResults = map[string]bool{
	"__half2float": true, "__low2float": true, "__high2float": true, "__int2float_rn": true, "__uint2float_rn": true,
}

// bf16Return wraps the call at k, the whole operand of a return statement,
// in hip_bfloat16(...) when the enclosing function returns a CUDA bf16 type
// that the target ROCm maps to hip_bfloat16.
func (t *translator) bf16Return(k int) {
	if !t.is(k-1, "return") || !t.is(k+1, "(") {
		return
	}
	close := t.matching(k + 1)
	if close < 0 || !t.is(close+1, ";") {
		return
	}
	ret := t.enclosingReturnType(k)
	if ret < 0 {
		return
	}
	e, ok := t.lookupIdent(t.text(ret))
	if !ok || e.Family != "bf16" || e.HIP != "hip_bfloat16" || !e.Available(t.ver) {
		return
	}
	t.insert(int(t.tok(k).Start), "hip_bfloat16(")
	t.insert(int(t.tok(close).End), ")")
	t.report(k, diag.Note, "call-fix", "the float from "+string(t.text(k))+" is converted to hip_bfloat16 explicitly: "+string(t.text(ret))+" becomes hip_bfloat16 for ROCm "+t.ver.String()+", whose constructor from float is explicit")
}

// enclosingReturnType returns the position of the single-token return type
// of the function whose body holds k ("T name(...) {", "T name<A>(...) {"),
// or -1.
func (t *translator) enclosingReturnType(k int) int {
	for i := t.openAround(k); i >= 0; i = t.openAround(i) {
		if !t.is(i-1, ")") {
			continue
		}
		// Find the "(" of the parameter list, then the name.
		open := -1
		d := 0
		for j := i - 1; j >= 0; j-- {
			if t.is(j, ")") {
				d++
			} else if t.is(j, "(") {
				d--
				if d == 0 {
					open = j
					break
				}
			}
		}
		name := open - 1
		if t.is(name, ">") {
			for d = 0; name >= 0; name-- {
				if t.is(name, ">") {
					d++
				} else if t.is(name, "<") {
					d--
					if d == 0 {
						break
					}
				}
			}
			name--
		}
		if open < 0 || name < 1 || t.tok(name).Kind != lex.Ident {
			return -1
		}
		if controlWords[string(t.text(name))] || t.is(name, "for") || t.is(name, "catch") {
			continue // a block inside the body
		}
		if t.tok(name-1).Kind != lex.Ident {
			return -1
		}
		return name - 1
	}
	return -1
}
