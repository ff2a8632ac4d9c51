package sources

import (
	"iter"
	"runtime"
	"strings"
	"sync"

	"github.com/hipgen/hipgen/sources/hipmap"
	"github.com/hipgen/hipgen/sources/lex"
)

// nameFilter is a bit set over a cheap hash of identifiers that the table
// knows (lex.Names). Most identifiers in a file (locals, keywords, user
// types) are not CUDA names; the filter answers "certainly not" for them
// without a map lookup, which keeps the single pass fast. The lexer
// consults the filter "any" as it lexes, marking the identifiers it may
// contain Known.
type nameFilter struct {
	bits lex.Names
}

func (f *nameFilter) add(s string) { f.bits.Add(s) }

func (f *nameFilter) mayContain(b []byte) bool { return f.bits.MayContain(b) }

// tableFilters are the name filters the translator consults, built once
// per table in one pass over its entries.
type tableFilters struct {
	// names are the table's identifiers, and the first parts of its
	// qualified names (a namespace such as cub may be looked up alone).
	names nameFilter
	// any is every identifier some rule of the translator looks at: the
	// table's names, the special names, the polyfilled names and the
	// float conversions. An identifier it rejects, outside a directive,
	// not followed by "::" and with no using-directive in scope, is copied
	// as it is without further questions.
	any nameFilter
	// tails are the last parts of the qualified names of the table and of
	// the polyfills (reduce of cooperative_groups::reduce): the names a
	// using-directive can bring in.
	tails nameFilter
}

var (
	filtersMu sync.Mutex
	filters   = map[*hipmap.Table]*tableFilters{}
)

// filtersFor returns the filters of a table: those of hipmap.Default are
// generatedFilters, computed by 'go generate' (filters_gen.go) so that no
// run pays for them at start; another table's are built on first use.
func filtersFor(tbl *hipmap.Table) *tableFilters {
	if tbl == hipmap.Default() {
		return &generatedFilters
	}
	filtersMu.Lock()
	defer filtersMu.Unlock()
	if f, ok := filters[tbl]; ok {
		return f
	}
	f := buildFilters(tbl.All())
	filters[tbl] = f
	return f
}

// filters_gen.go holds the table's names and also those of the name
// tables (names.go): after changing any of them, run go generate ./sources
// (TestGeneratedFilters fails until then). It is made from hipmap's
// table_gen.go, so hipmap's is generated first ('go generate ./...' visits
// this package before hipmap).
//go:generate go generate ./hipmap
//go:generate go test -run ^TestGeneratedFilters$ -update-generated .
//go:generate go test -run ^TestTranslatorVersion$ -update-generated .

// buildFilters builds the filters of a table from its entries, with the
// translator's own names (specialNames, polyfills).
func buildFilters(entries iter.Seq[hipmap.Entry]) *tableFilters {
	nt := tables()
	f := &tableFilters{}
	addTail := func(q string) {
		if i := strings.LastIndex(q, "::"); i >= 0 {
			f.tails.add(q[i+2:])
		}
	}
	for e := range entries {
		if e.Kind != hipmap.Identifier {
			continue
		}
		name, _, _ := strings.Cut(e.CUDA, "::")
		f.names.add(name)
		f.names.add(e.CUDA)
		addTail(e.CUDA)
	}
	for i := range f.any.bits {
		f.any.bits[i] = f.names.bits[i] | nt.specialFilter.bits[i]
	}
	for q := range nt.polyfills {
		f.any.add(q)
		addTail(q)
	}
	return f
}

// Token and index buffers are reused between translations: a large file
// needs megabytes of them, and allocating (and zeroing) them each time
// costs more than lexing. Nothing of one translation is visible to the next.
var (
	codePool = sync.Pool{New: func() any { return new(lex.Code) }}
)

// scan lexes src into buffers from the pool; putCode gives them back. A
// long file is lexed in parallel chunks of at least parallelChunk bytes
// (the largest files of a project would otherwise be the last ones done).
func scan(src []byte) lex.Code {
	p := codePool.Get().(*lex.Code)
	buf := *p
	if n := len(src)/4 + 16; cap(buf.Tokens) < n {
		buf.Tokens = make([]lex.Token, n)
	}
	// Identifiers are marked Known for the default table; a translation
	// with another table marks them again (see newTranslator).
	names := &generatedFilters.any.bits
	if parts := min(runtime.GOMAXPROCS(0), len(src)/parallelChunk, 8); parts > 1 {
		return lex.ScanParallel(src, buf, names, parts)
	}
	return lex.Scan(src, buf, names)
}

const parallelChunk = 32 << 10

func putCode(c lex.Code) {
	codePool.Put(&c)
}

// release returns the translator's buffers to the pools; t must not be
// used afterwards.
func (t *translator) release() {
	putCode(lex.Code{Tokens: t.toks[:0], Comments: t.comments[:0], Scopes: t.scopes[:0], Idents: t.idents, Brackets: t.br})
	t.toks, t.comments, t.scopes, t.br, t.idents = nil, nil, nil, lex.Brackets{}, nil
	clear(t.edits) // their texts may be large
	edits := t.edits
	editPool.Put(&edits)
	t.edits = nil
}

// editPool holds edit lists for reuse, like codePool the token buffers.
var editPool sync.Pool

// getEdits returns an empty edit list with room for n edits.
func getEdits(n int) []edit {
	if p, ok := editPool.Get().(*[]edit); ok && cap(*p) >= n {
		return (*p)[:0]
	}
	return make([]edit, 0, n)
}
