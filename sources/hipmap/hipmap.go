// Package hipmap owns the CUDA-to-HIP mapping tables: which CUDA identifier or
// header becomes which HIP one, in which family (runtime, driver, cuBLAS, ...),
// with what status, and from which ROCm release the HIP name exists.
//
// The tables are plain text files embedded from data/ (one or more per family)
// and parsed once. The package only answers lookups: it never reads source
// files, rewrites text or decides how the translator reports a finding. A
// Table is immutable after loading and safe for concurrent use.
package hipmap

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Status says whether a CUDA name can be ported.
type Status int

const (
	// Supported: the HIP name is a drop-in replacement.
	Supported Status = iota
	// Unsupported: HIP has no equivalent; the translator must report it.
	// The entry's HIP name is empty.
	Unsupported
	// Deprecated: mapped, but deprecated (or removed) in CUDA or in HIP;
	// the translation works today and deserves a note.
	Deprecated
)

func (s Status) String() string {
	switch s {
	case Supported:
		return "supported"
	case Unsupported:
		return "unsupported"
	case Deprecated:
		return "deprecated"
	}
	return "Status(" + strconv.Itoa(int(s)) + ")"
}

// Kind says what kind of token an entry maps.
type Kind int

const (
	// Identifier: a C/C++ identifier, or a qualified name such as
	// "cub::BlockReduce" (written without spaces around "::").
	Identifier Kind = iota
	// Header: an #include path without quotes or angle brackets,
	// such as "cuda_runtime.h".
	Header
)

func (k Kind) String() string {
	switch k {
	case Identifier:
		return "identifier"
	case Header:
		return "header"
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Version is a ROCm release. The zero Version in an Entry's range means
// "unbounded"; the zero Version passed to a lookup means DefaultROCm.
type Version struct{ Major, Minor int }

// DefaultROCm is the release assumed when the caller does not know which
// ROCm will compile the output: the one Debian 12 packages.
var DefaultROCm = Version{5, 2}

// IsZero reports whether v is the zero Version.
func (v Version) IsZero() bool { return v == Version{} }

// Less reports whether v is an older release than w.
func (v Version) Less(w Version) bool {
	if v.Major != w.Major {
		return v.Major < w.Major
	}
	return v.Minor < w.Minor
}

func (v Version) String() string { return fmt.Sprintf("%d.%d", v.Major, v.Minor) }

// ParseVersion parses "6.2", "6.2.1" (the patch level is ignored) or "6".
func ParseVersion(s string) (Version, error) {
	parts := strings.Split(strings.TrimSpace(s), ".")
	if len(parts) > 3 || parts[0] == "" {
		return Version{}, fmt.Errorf("invalid ROCm version %q: want MAJOR.MINOR", s)
	}
	var nums [2]int
	for i := 0; i < len(parts) && i < 2; i++ {
		n, err := strconv.Atoi(parts[i])
		if err != nil || n < 0 {
			return Version{}, fmt.Errorf("invalid ROCm version %q: want MAJOR.MINOR", s)
		}
		nums[i] = n
	}
	if len(parts) == 3 {
		if n, err := strconv.Atoi(parts[2]); err != nil || n < 0 {
			return Version{}, fmt.Errorf("invalid ROCm version %q: want MAJOR.MINOR", s)
		}
	}
	return Version{nums[0], nums[1]}, nil
}

// Entry is one mapping. The HIP name is valid for ROCm releases v with
// MinROCm <= v < MaxROCm (a zero bound is unbounded), so one CUDA name may
// have several entries that map it differently per release.
type Entry struct {
	CUDA, HIP string
	Family    string // the data file's family: "runtime", "cublas", ...
	Status    Status
	Kind      Kind
	MinROCm   Version // first release with the HIP name; zero: all releases
	MaxROCm   Version // first release without it; zero: still present
	Note      string
}

// Available reports whether the entry's HIP name exists in ROCm release v
// (zero v means DefaultROCm). Unsupported entries are never available.
func (e Entry) Available(v Version) bool {
	if e.Status == Unsupported {
		return false
	}
	return e.inRange(v)
}

func (e Entry) inRange(v Version) bool {
	if v.IsZero() {
		v = DefaultROCm
	}
	if !e.MinROCm.IsZero() && v.Less(e.MinROCm) {
		return false
	}
	if !e.MaxROCm.IsZero() && !v.Less(e.MaxROCm) {
		return false
	}
	return true
}

// Renames reports whether the entry changes the text: a supported or
// deprecated mapping whose HIP name differs from the CUDA name. Entries that
// keep the name (HIP accepts the CUDA spelling) exist so that the translator
// knows the name is portable; they are not counted as mappings.
func (e Entry) Renames() bool { return e.Status != Unsupported && e.HIP != e.CUDA }

// Table holds all entries, indexed for lookup. It is immutable after
// loading and safe for concurrent use.
type Table struct {
	entries     []Entry         // sorted by Kind, CUDA, MinROCm
	identifiers map[string]span // CUDA name -> its entries in entries
	headers     map[string]span
	families    []string
	version     string
}

var (
	defaultOnce  sync.Once
	defaultTable *Table
)

// Default returns the table parsed from the embedded data files. The data is
// validated by the package tests, so a parse failure here is a build defect
// and panics.
func Default() *Table {
	defaultOnce.Do(func() {
		t, err := Load(embeddedData, "data")
		if err != nil {
			panic("hipmap: embedded tables: " + err.Error())
		}
		defaultTable = t
	})
	return defaultTable
}

// Identifier returns the entry for a CUDA identifier (or qualified name) as
// it applies to ROCm release rocm (zero means DefaultROCm). ok is false only
// when the name is not in the table at all. When the name is known but no
// entry covers rocm, the entry for the nearest later release (else the
// latest earlier one) is returned, so the caller can say which release is
// needed: check e.Available(rocm) before rewriting.
func (t *Table) Identifier(name string, rocm Version) (Entry, bool) {
	return pick(t.identifiers[name].of(t.entries), rocm)
}

// Header returns the entry for an #include path such as "cuda_runtime.h"
// or "cub/cub.cuh", with the same ROCm rules as Identifier.
func (t *Table) Header(path string, rocm Version) (Entry, bool) {
	return pick(t.headers[path].of(t.entries), rocm)
}

// span locates the consecutive entries of one name in Table.entries.
type span struct{ start, n uint32 }

func (s span) of(entries []Entry) []Entry { return entries[s.start : s.start+s.n] }

func pick(list []Entry, rocm Version) (Entry, bool) {
	if len(list) == 0 {
		return Entry{}, false
	}
	if rocm.IsZero() {
		rocm = DefaultROCm
	}
	for _, e := range list {
		if e.inRange(rocm) {
			return e, true
		}
	}
	// list is sorted by MinROCm: the first entry starting after rocm is the
	// nearest later release; otherwise every entry ended before rocm.
	for _, e := range list {
		if rocm.Less(e.MinROCm) {
			return e, true
		}
	}
	return list[len(list)-1], true
}

// Entries returns every entry sorted by kind, CUDA name and MinROCm.
// The slice is a copy.
func (t *Table) Entries() []Entry { return append([]Entry(nil), t.entries...) }

// Families returns the family names, sorted.
func (t *Table) Families() []string { return append([]string(nil), t.families...) }

// Version returns a hash of the data the table was loaded from; it changes
// whenever any mapping changes, so callers can use it in cache keys.
func (t *Table) Version() string { return t.version }

// TableVersion is Default().Version() without parsing: a hash of the
// embedded data files.
var TableVersion = hashData()

func hashData() string {
	files, err := dataFiles(embeddedData, "data")
	if err != nil {
		return "invalid"
	}
	h := sha256.New()
	for _, f := range files {
		fmt.Fprintf(h, "%s\x00%d\x00", f.name, len(f.data))
		h.Write(f.data)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// newTable indexes entries, which must be sorted by Kind, CUDA and MinROCm
// (sortRecords does that).
func newTable(entries []Entry, version string) *Table {
	t := &Table{
		entries:     entries,
		identifiers: make(map[string]span, len(entries)),
		headers:     make(map[string]span, 256),
		version:     version,
	}
	fams := map[string]bool{}
	for i := 0; i < len(entries); {
		j := i + 1
		for j < len(entries) && entries[j].Kind == entries[i].Kind && entries[j].CUDA == entries[i].CUDA {
			j++
		}
		sp := span{uint32(i), uint32(j - i)}
		if entries[i].Kind == Header {
			t.headers[entries[i].CUDA] = sp
		} else {
			t.identifiers[entries[i].CUDA] = sp
		}
		for _, e := range entries[i:j] {
			fams[e.Family] = true
		}
		i = j
	}
	for f := range fams {
		t.families = append(t.families, f)
	}
	sort.Strings(t.families)
	return t
}
