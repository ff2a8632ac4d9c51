package sources

import (
	"strings"
	"sync"

	"github.com/hipgen/hipgen/sources/hipmap"
	"github.com/hipgen/hipgen/sources/lex"
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

var (
	anyMu      sync.Mutex
	anyFilters = map[*hipmap.Table]*nameFilter{}
)

// anyFilterFor returns the filter of every identifier some rule of the
// translator looks at: the table's names, the special names and the
// polyfilled ones. An identifier it rejects, outside a directive, not
// followed by "::" and with no using-directive in scope, is copied as it
// is without further questions.
func anyFilterFor(tbl *hipmap.Table) *nameFilter {
	anyMu.Lock()
	defer anyMu.Unlock()
	if f, ok := anyFilters[tbl]; ok {
		return f
	}
	f := &nameFilter{}
	table := filterFor(tbl)
	for i := range f.bits {
		f.bits[i] = table.bits[i] | specialFilter.bits[i]
	}
	for q := range polyfills {
		f.add(q)
	}
	for n := range floatResults {
		f.add(n)
	}
	anyFilters[tbl] = f
	return f
}

var (
	tailsMu sync.Mutex
	tails   = map[*hipmap.Table]*nameFilter{}
)

// tailsFor returns the filter of the last parts of a table's qualified
// identifiers and of the qualified names with polyfills (reduce of
// cooperative_groups::reduce): the names a using-directive can bring in.
func tailsFor(tbl *hipmap.Table) *nameFilter {
	tailsMu.Lock()
	defer tailsMu.Unlock()
	if f, ok := tails[tbl]; ok {
		return f
	}
	f := &nameFilter{}
	addTail := func(q string) {
		if i := strings.LastIndex(q, "::"); i >= 0 {
			f.add(q[i+2:])
		}
	}
	for _, e := range tbl.Entries() {
		if e.Kind == hipmap.Identifier {
			addTail(e.CUDA)
		}
	}
	for q := range polyfills {
		addTail(q)
	}
	tails[tbl] = f
	return f
}

// Token and index buffers are reused between translations: a large file
// needs megabytes of them, and allocating (and zeroing) them each time
// costs more than lexing. Nothing of one translation is visible to the next.
var (
	tokenPool = sync.Pool{New: func() any { return new([]lex.Token) }}
	sigPool   = sync.Pool{New: func() any { return new([]int32) }}
)

func getTokenBuffer(n int) []lex.Token {
	p := tokenPool.Get().(*[]lex.Token)
	if cap(*p) < n {
		return make([]lex.Token, 0, n)
	}
	return (*p)[:0]
}

func getSigBuffer(n int) []int32 {
	p := sigPool.Get().(*[]int32)
	if cap(*p) < n {
		return make([]int32, 0, n)
	}
	return (*p)[:0]
}

// release returns the translator's buffers to the pools; t must not be
// used afterwards.
func (t *translator) release() {
	toks, sig := t.toks[:0], t.sig[:0]
	t.toks, t.sig = nil, nil
	tokenPool.Put(&toks)
	sigPool.Put(&sig)
	for _, b := range []*[]int32{&t.closeOf, &t.blockEnd, &t.blockOpen} {
		if *b != nil {
			buf := (*b)[:0]
			*b = nil
			sigPool.Put(&buf)
		}
	}
}

// Warm builds the default mapping table and the lookup filters the
// translator needs on first use, so a caller can overlap that with its own
// start-up (reading the manifest, walking directories).
func Warm() {
	tbl := hipmap.Default()
	anyFilterFor(tbl)
	tailsFor(tbl)
}
