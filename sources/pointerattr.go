package sources

import (
	"github.com/hipgen/hipgen/diag"
	"github.com/hipgen/hipgen/sources/lex"
)

// cudaPointerAttributes' memory type is the member type (CUDA 10 and
// later; CUDA 9 and older had memoryType). HIP's hipPointerAttribute_t
// named it memoryType before ROCm 6.0 and type from 6.0 on, without the
// other name (hipcc: "no member named 'type'"). The member of a variable
// the file declares as a cudaPointerAttributes (or a pointer to one) is
// given the target's name.

// pointerAttrMember renames the member at k, after a '.' or '->', when it
// is the memory type of a cudaPointerAttributes the file declares.
func (t *translator) pointerAttrMember(k int) {
	var want string
	switch {
	case t.is(k, "type") && t.ver.Less(rocm60):
		want = "memoryType"
	case t.is(k, "memoryType") && !t.ver.Less(rocm60):
		want = "type"
	default:
		return
	}
	recv := k - 2
	if t.tok(recv).Kind != lex.Ident || t.isByte(recv-1, '.') || t.is(recv-1, "->") || t.is(recv-1, "::") {
		return
	}
	if !t.pointerAttrNames()[string(t.text(recv))] {
		return
	}
	t.replace(k, want)
	t.report(k, diag.Note, "call-fix", "the memory type of a pointer's attributes became "+want+": hipPointerAttribute_t names it memoryType before ROCm 6.0 and type from 6.0 on, where CUDA 10 and later name it type"+oncePerFile)
}

// pointerAttrNames returns the names the file declares as a
// cudaPointerAttributes or a pointer to one, or nil.
func (t *translator) pointerAttrNames() map[string]bool {
	f := t.facts
	f.pointerAttrsOnce.Do(func() {
		if !containsText(t.src, "cudaPointerAttributes") {
			return
		}
		t.eachUse([]byte("cudaPointerAttributes"), func(i int) bool {
			t.declarators(i, func(j, _ int, _, _ bool) bool {
				if f.pointerAttrs == nil {
					f.pointerAttrs = map[string]bool{}
				}
				f.pointerAttrs[string(t.text(j))] = true
				return true
			})
			return true
		})
	})
	return f.pointerAttrs
}
