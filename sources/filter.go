package sources

import (
	"strings"
	"sync"

	"github.com/hipgen/hipgen/sources/hipmap"
)

// nameFilter is a bit set over a cheap hash of identifiers that the table
// knows. Most identifiers in a file (locals, keywords, user types) are not
// CUDA names; the filter answers "certainly not" for them without a map
// lookup, which keeps the single pass fast.
type nameFilter struct {
	bits [1 << 16 / 64]uint64
}

func nameHash(b []byte) uint32 {
	n := len(b)
	if n == 0 {
		return 0
	}
	h := uint32(n)*2654435761 ^ uint32(b[0])<<8 ^ uint32(b[n-1])<<16 ^ uint32(b[n/2])*40503
	return (h ^ h>>15) & (1<<16 - 1)
}

func (f *nameFilter) add(s string) {
	h := nameHash([]byte(s))
	f.bits[h/64] |= 1 << (h % 64)
}

func (f *nameFilter) mayContain(b []byte) bool {
	h := nameHash(b)
	return f.bits[h/64]&(1<<(h%64)) != 0
}

var (
	filtersMu sync.Mutex
	filters   = map[*hipmap.Table]*nameFilter{}
)

// filterFor returns the filter of a table's identifiers, built once.
func filterFor(tbl *hipmap.Table) *nameFilter {
	filtersMu.Lock()
	defer filtersMu.Unlock()
	if f, ok := filters[tbl]; ok {
		return f
	}
	f := &nameFilter{}
	for _, e := range tbl.Entries() {
		if e.Kind != hipmap.Identifier {
			continue
		}
		// Qualified names are looked up whole elsewhere; their first part
		// (a namespace such as cub) may also be looked up alone.
		name, _, _ := strings.Cut(e.CUDA, "::")
		f.add(name)
		f.add(e.CUDA)
	}
	filters[tbl] = f
	return f
}
