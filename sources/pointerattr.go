package sources

import (
	"sync"

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
	recv := t.plainReceiver(k)
	if recv < 0 || !t.pointerAttrNames()[string(t.text(recv))] {
		return
	}
	t.replace(k, want)
	t.report(k, diag.Note, "call-fix", "the memory type of a pointer's attributes became "+want+": hipPointerAttribute_t names it memoryType before ROCm 6.0 and type from 6.0 on, where CUDA 10 and later name it type"+oncePerFile)
}

// plainReceiver returns the position of the name before the '.' or '->'
// of the member at k when that name is the whole receiver (not itself a
// member or qualified: "a.b.x", "p->b.x" and "ns::v.x" have none), or -1.
func (t *translator) plainReceiver(k int) int {
	r := k - 2
	if t.tok(r).Kind != lex.Ident || t.isByte(r-1, '.') || t.is(r-1, "->") || t.is(r-1, "::") {
		return -1
	}
	return r
}

// pointerAttrNames returns the names the file declares as a
// cudaPointerAttributes or a pointer to one, or nil.
func (t *translator) pointerAttrNames() map[string]bool {
	f := t.facts
	return t.namesDeclaredAs(&f.pointerAttrsOnce, &f.pointerAttrs, "cudaPointerAttributes")
}

// namesDeclaredAs returns the names the file declares with the type typ
// (or a pointer to it), or nil, found the first time through once and
// kept in *names.
func (t *translator) namesDeclaredAs(once *sync.Once, names *map[string]bool, typ string) map[string]bool {
	once.Do(func() {
		if !containsText(t.src, typ) {
			return
		}
		t.eachUse([]byte(typ), func(i int) bool {
			t.declarators(i, func(j, _ int, _, _ bool) bool {
				if *names == nil {
					*names = map[string]bool{}
				}
				(*names)[string(t.text(j))] = true
				return true
			})
			return true
		})
	})
	return *names
}

// textureDescMembers are the members of CUDA's cudaTextureDesc that HIP's
// hipTextureDesc lacks (ROCm 5.2, and ROCm/HIP's texture_types.h of
// October 2024), with what each does.
var textureDescMembers = map[string]string{
	"disableTrilinearOptimization": "CUDA's switch that turns off trilinear filtering optimizations; HIP has no such switch, and filtered reads keep HIP's precision",
	"seamlessCubemap":              "CUDA 12's seamless cube map filtering (cudaTextureDesc_v2 in CUDA 11); HIP has no such setting, so filtering at a cube map's face edges may differ from CUDA's with it on",
}

// textureDescMember reports the member at k, after a '.' or '->', when it
// is one of textureDescMembers of a cudaTextureDesc the file declares:
// hipcc rejects it ("no member named").
func (t *translator) textureDescMember(k int) {
	why, ok := textureDescMembers[string(t.text(k))]
	recv := t.plainReceiver(k)
	if !ok || recv < 0 {
		return
	}
	f := t.facts
	if !t.namesDeclaredAs(&f.textureDescsOnce, &f.textureDescs, "cudaTextureDesc")[string(t.text(recv))] {
		return
	}
	t.report(k, diag.Error, "unsupported-api", "hipTextureDesc has no "+string(t.text(k))+" ("+why+"): remove its use")
}
