package sources

import (
	"slices"
	"sync"

	"github.com/hipgen/hipgen/diag"
	"github.com/hipgen/hipgen/sources/lex"
)

// Handles that are integers in CUDA and pointers in HIP. CUDA's device
// pointer of the driver API (CUdeviceptr) and its texture and surface
// objects are unsigned integers, and code adds offsets to them or takes
// their bits apart (cuda-samples' simpleVulkanMMAP adds a size to a
// CUdeviceptr, bindlessTexture shifts a texture object); HIP's
// hipDeviceptr_t is a void* and its objects are pointers to opaque
// structs, so the same arithmetic does not compile ("arithmetic on a
// pointer to void", "invalid operands to binary expression"). The
// translation is right; the code needs a cast, which the diagnostic
// names.

// integerHandles are those CUDA types, with what HIP makes of each.
var integerHandles = map[string]string{
	"CUdeviceptr":         "a void* (hipDeviceptr_t)",
	"CUdeviceptr_v2":      "a void* (hipDeviceptr_t)",
	"CUtexObject":         "a pointer (hipTextureObject_t)",
	"CUsurfObject":        "a pointer (hipSurfaceObject_t)",
	"cudaTextureObject_t": "a pointer (hipTextureObject_t)",
	"cudaSurfaceObject_t": "a pointer (hipSurfaceObject_t)",
}

// integerHandleTypes are integerHandles' keys in a fixed order, for
// deterministic reports.
var integerHandleTypes = []string{"CUdeviceptr", "CUdeviceptr_v2", "CUtexObject", "CUsurfObject", "cudaTextureObject_t", "cudaSurfaceObject_t"}

// handleArithmeticOps are the operators that take an integer handle as
// an integer when they follow it.
var handleArithmeticOps = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"+": true, "-": true, "&": true, "|": true, "^": true, "<<": true, ">>": true, "%": true,
		"+=": true, "-=": true, "&=": true, "|=": true, "^=": true, "<<=": true, ">>=": true, "%=": true, "++": true, "--": true}
})

// handleArithmetic reports, once per variable, integer arithmetic on a
// variable the file declares with one of integerHandles' types.
func (t *translator) handleArithmetic() {
	if !slices.ContainsFunc(integerHandleTypes, t.mayName) {
		return
	}
	vars := map[string]string{} // name -> its CUDA type
	var order []string
	for _, typ := range integerHandleTypes {
		t.eachUse([]byte(typ), func(i int) bool {
			for _, n := range t.handleDeclarators(i) {
				if _, ok := vars[n]; !ok {
					vars[n] = typ
					order = append(order, n)
				}
			}
			return true
		})
	}
	for _, n := range order {
		typ := vars[n]
		t.eachUse([]byte(n), func(j int) bool {
			if t.is(j-1, ".") || t.is(j-1, "->") || t.is(j-1, "::") || !t.handleArithmeticAt(j) {
				return true
			}
			t.report(j, diag.Warning, "unsupported-api", n+" is a "+typ+", an unsigned integer in CUDA and "+integerHandles[typ]+
				" in HIP, so integer arithmetic on it does not compile there: cast it, as (hipDeviceptr_t)((char*)p + n) for an offset, or go through uintptr_t (reported at the first such use of "+n+" only)")
			return false
		})
	}
}

// handleDeclarators returns the names declared, not as pointers or
// arrays, after the type at i: "CUdeviceptr a, b = 0;", a parameter
// "cudaTextureObject_t tex)".
func (t *translator) handleDeclarators(i int) []string {
	var names []string
	t.declarators(i, func(j, next int, first, pointer bool) bool {
		if pointer || t.tok(j).Directive != t.tok(i).Directive ||
			!(t.isByte(next, ';') || t.isByte(next, '=') || t.isByte(next, ',') || first && t.isByte(next, ')')) {
			return false
		}
		names = append(names, string(t.text(j)))
		return true
	})
	return names
}

// handleArithmeticAt reports whether the variable at j is an operand of
// integer arithmetic: an operator of handleArithmeticOps after it, or a
// binary one before it.
func (t *translator) handleArithmeticAt(j int) bool {
	if j+1 < len(t.toks) && handleArithmeticOps()[string(t.text(j+1))] {
		return true
	}
	if j < 2 {
		return false
	}
	switch string(t.text(j - 1)) {
	case "+", "-", "|", "^", "<<", ">>", "%":
		// Binary only: an operand comes before the operator.
		p := t.tok(j - 2)
		return p.Kind == lex.Ident && !cppKeywords()[string(t.text(j-2))] || p.Kind == lex.Number || t.isByte(j-2, ')') || t.isByte(j-2, ']')
	}
	return false
}
