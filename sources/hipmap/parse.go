package hipmap

import (
	"cmp"
	"embed"
	"encoding/hex"
	"fmt"
	"github.com/hipgen/hipgen/internal/sha256"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"
)

// The data format, one file per family or per part of a family:
// data/<family>[.<part>].tsv. data/headers.tsv and data/<family>.headers.tsv
// hold Header entries, every other file Identifier entries:
//
//	# comment
//	CUDA<TAB>HIP[<TAB>status[<TAB>rocm[<TAB>note]]]
//
// HIP is "-" when there is none (status unsupported) and "=" when HIP keeps
// the CUDA spelling. status is "ok" (the default when empty), "unsupported"
// or "deprecated". rocm is empty or "-" for all releases, else "A.B..",
// "..C.D" or "A.B..C.D": the half-open range [A.B, C.D) of ROCm releases in
// which the HIP name exists.
//
//go:embed data/*.tsv
var embeddedData embed.FS

type dataFile struct {
	name string
	data []byte
}

func dataFiles(fsys fs.FS, dir string) ([]dataFile, error) {
	names, err := fs.Glob(fsys, path.Join(dir, "*.tsv"))
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var files []dataFile
	for _, n := range names {
		b, err := fs.ReadFile(fsys, n)
		if err != nil {
			return nil, err
		}
		files = append(files, dataFile{name: n, data: b})
	}
	return files, nil
}

// Load parses every dir/*.tsv file of fsys into a Table. Errors name the
// file and line; all of them are reported, not only the first.
func Load(fsys fs.FS, dir string) (*Table, error) {
	files, err := dataFiles(fsys, dir)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no *.tsv table files", dir)
	}
	h := sha256.New()
	var recs []record
	var errs []string
	for i, f := range files {
		fmt.Fprintf(h, "%s\x00%d\x00", f.name, len(f.data))
		h.Write(f.data)
		rs, ferrs := parseFile(i, f.name, f.data)
		recs = append(recs, rs...)
		errs = append(errs, ferrs...)
	}
	sortRecords(recs)
	if len(errs) == 0 {
		errs = checkOverlaps(recs, files)
	}
	if len(errs) > 0 {
		if len(errs) > 20 {
			errs = append(errs[:20], fmt.Sprintf("... and %d more errors", len(errs)-20))
		}
		return nil, fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	entries := make([]Entry, len(recs))
	for i, r := range recs {
		entries[i] = r.Entry
	}
	return newTable(entries, hex.EncodeToString(h.Sum(nil))[:16]), nil
}

// record is an entry with the data file and line it came from, kept for
// error messages only.
type record struct {
	Entry
	file, line int
}

func (r record) where(files []dataFile) string {
	return fmt.Sprintf("%s:%d", files[r.file].name, r.line)
}

// sortRecords orders records by kind, name and MinROCm, then by origin so
// that the order is total and deterministic.
func sortRecords(recs []record) {
	slices.SortFunc(recs, func(a, b record) int {
		if a.Kind != b.Kind {
			return cmp.Compare(a.Kind, b.Kind)
		}
		if c := strings.Compare(a.CUDA, b.CUDA); c != 0 {
			return c
		}
		switch {
		case a.MinROCm.Less(b.MinROCm):
			return -1
		case b.MinROCm.Less(a.MinROCm):
			return 1
		}
		if a.file != b.file {
			return cmp.Compare(a.file, b.file)
		}
		return cmp.Compare(a.line, b.line)
	})
}

// parseFile returns the entries of the file-th data file and its errors.
func parseFile(file int, name string, data []byte) ([]record, []string) {
	parts := strings.Split(strings.TrimSuffix(path.Base(name), ".tsv"), ".")
	family := parts[0]
	kind := Identifier
	if family == "headers" || len(parts) == 2 && parts[1] == "headers" {
		kind = Header
	}
	var recs []record
	var errs []string
	text := string(data)
	for i := 0; text != ""; i++ {
		line, rest, _ := strings.Cut(text, "\n")
		text = rest
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		e, err := parseLine(line)
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s:%d: %v", name, i+1, err))
			continue
		}
		e.Family, e.Kind = family, kind
		recs = append(recs, record{e, file, i + 1})
	}
	return recs, errs
}

func parseLine(line string) (Entry, error) {
	f := strings.Split(line, "\t")
	if len(f) < 2 {
		return Entry{}, fmt.Errorf("want CUDA<TAB>HIP[<TAB>status[<TAB>rocm[<TAB>note]]], got %q", line)
	}
	if len(f) > 5 {
		f[4] = strings.Join(f[4:], " ")
		f = f[:5]
	}
	for len(f) < 5 {
		f = append(f, "")
	}
	e := Entry{CUDA: strings.TrimSpace(f[0]), HIP: strings.TrimSpace(f[1]), Note: strings.TrimSpace(f[4])}
	if e.CUDA == "" || strings.ContainsAny(e.CUDA, " ") {
		return Entry{}, fmt.Errorf("bad CUDA name %q", e.CUDA)
	}
	switch strings.TrimSpace(f[2]) {
	case "", "ok":
		e.Status = Supported
	case "deprecated":
		e.Status = Deprecated
	case "unsupported":
		e.Status = Unsupported
	default:
		return Entry{}, fmt.Errorf("unknown status %q (want ok, deprecated or unsupported)", f[2])
	}
	switch {
	case e.HIP == "-":
		if e.Status != Unsupported {
			return Entry{}, fmt.Errorf("%s: no HIP name but status is %s", e.CUDA, e.Status)
		}
		e.HIP = ""
	case e.Status == Unsupported:
		return Entry{}, fmt.Errorf("%s: unsupported entries take \"-\" as HIP name, got %q", e.CUDA, e.HIP)
	case e.HIP == "=":
		e.HIP = e.CUDA
	case e.HIP == e.CUDA:
		return Entry{}, fmt.Errorf("%s maps to itself: write \"=\" if HIP keeps the CUDA name", e.CUDA)
	case e.HIP == "" || strings.ContainsAny(e.HIP, " "):
		return Entry{}, fmt.Errorf("%s: bad HIP name %q", e.CUDA, e.HIP)
	}
	var err error
	e.MinROCm, e.MaxROCm, err = parseRange(strings.TrimSpace(f[3]))
	if err != nil {
		return Entry{}, err
	}
	return e, nil
}

// parseRange parses "", "-", "A.B..", "..C.D" or "A.B..C.D".
func parseRange(s string) (lo, hi Version, err error) {
	if s == "" || s == "-" {
		return Version{}, Version{}, nil
	}
	a, b, ok := strings.Cut(s, "..")
	if !ok {
		return lo, hi, fmt.Errorf("bad ROCm range %q (want A.B.., ..C.D or A.B..C.D)", s)
	}
	if a != "" {
		if lo, err = ParseVersion(a); err != nil {
			return lo, hi, err
		}
	}
	if b != "" {
		if hi, err = ParseVersion(b); err != nil {
			return lo, hi, err
		}
	}
	if lo.IsZero() && hi.IsZero() {
		return lo, hi, fmt.Errorf("bad ROCm range %q: both ends empty", s)
	}
	if !lo.IsZero() && !hi.IsZero() && !lo.Less(hi) {
		return lo, hi, fmt.Errorf("bad ROCm range %q: empty", s)
	}
	return lo, hi, nil
}

// checkOverlaps rejects two entries of one kind and CUDA name whose ROCm
// ranges overlap: a lookup must have exactly one answer per release. recs
// is sorted, so the entries of a name are adjacent.
func checkOverlaps(recs []record, files []dataFile) []string {
	var errs []string
	for i := 0; i < len(recs); {
		j := i + 1
		for j < len(recs) && recs[j].Kind == recs[i].Kind && recs[j].CUDA == recs[i].CUDA {
			j++
		}
		for a := i; a < j; a++ {
			for b := a + 1; b < j; b++ {
				if overlap(recs[a].Entry, recs[b].Entry) {
					errs = append(errs, fmt.Sprintf("%s: %s %q overlaps the entry at %s in ROCm range",
						recs[b].where(files), recs[b].Kind, recs[b].CUDA, recs[a].where(files)))
				}
			}
		}
		i = j
	}
	return errs
}

func overlap(a, b Entry) bool {
	// [a.Min, a.Max) and [b.Min, b.Max) overlap unless one ends before the
	// other starts; zero bounds are -inf and +inf.
	endsBefore := func(x, y Entry) bool {
		return !x.MaxROCm.IsZero() && !y.MinROCm.IsZero() && !y.MinROCm.Less(x.MaxROCm)
	}
	return !endsBefore(a, b) && !endsBefore(b, a)
}
