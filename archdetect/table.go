package archdetect

import (
	_ "embed"
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// Backend is a GPU toolchain family.
type Backend string

// The two backends hipgen builds for.
const (
	ROCm Backend = "rocm"
	CUDA Backend = "cuda"
)

// Info describes one processor in the architecture table.
type Info struct {
	// Arch is the bare processor name: "gfx942", "sm_90".
	Arch    string  `json:"arch"`
	Backend Backend `json:"backend"`
	// Family is the generation: GCN5, CDNA1..CDNA4, RDNA1..RDNA4, Pascal..Blackwell.
	Family string `json:"family"`
	// Names are marketing names of products built on this processor.
	Names []string `json:"names"`
	// WaveSize is the default wavefront (warp) width: 64 on gfx9xx, 32 elsewhere.
	WaveSize int `json:"wave_size"`
	// MatrixCores reports matrix instructions; Matrix names them
	// ("mfma", "wmma" or "tensor").
	MatrixCores bool   `json:"matrix_cores"`
	Matrix      string `json:"matrix,omitempty"`
	// FP8 is the 8-bit float flavour: "fnuz" (gfx94x), "ocp" (e4m3fn/e5m2) or "".
	FP8 string `json:"fp8,omitempty"`
	// Features are the AMD target-ID features the processor accepts
	// (sramecc, xnack), in canonical (alphabetical) order.
	Features []string `json:"features,omitempty"`
	// Variants are the NVIDIA suffixes the processor accepts: "a"
	// (arch-specific, sm_90a) and "f" (family-specific, sm_100f).
	Variants []string `json:"variants,omitempty"`
}

//go:embed archs.tsv
var archsTSV string

// archTable holds every row of archs.tsv in file order and an index of
// them by processor, parsed on first use rather than when any hipgen
// command starts.
var archTable = sync.OnceValues(func() ([]Info, map[string]Info) { return mustParseTable(archsTSV) })

// table returns every row of archs.tsv in file order.
func table() []Info {
	rows, _ := archTable()
	return rows
}

// byArch returns the row of a bare processor name.
func byArch(arch string) (Info, bool) {
	_, index := archTable()
	in, ok := index[arch]
	return in, ok
}

// mustParseTable panics only on a broken embedded file, which the package
// tests catch; user input never reaches it.
func mustParseTable(data string) ([]Info, map[string]Info) {
	infos, err := parseTable(data)
	if err != nil {
		panic("archdetect: archs.tsv: " + err.Error())
	}
	m := make(map[string]Info, len(infos))
	for _, in := range infos {
		m[in.Arch] = in
	}
	return infos, m
}

func parseTable(data string) ([]Info, error) {
	var out []Info
	seen := map[string]bool{}
	for i, line := range strings.Split(data, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 9 {
			return nil, fmt.Errorf("line %d: %d columns, want 9", i+1, len(f))
		}
		wave, err := strconv.Atoi(f[3])
		if err != nil || (wave != 32 && wave != 64) {
			return nil, fmt.Errorf("line %d: wave size %q", i+1, f[3])
		}
		in := Info{
			Arch:     f[0],
			Backend:  Backend(f[1]),
			Family:   f[2],
			WaveSize: wave,
			Matrix:   dash(f[4]),
			FP8:      dash(f[5]),
			Features: list(f[6]),
			Variants: list(f[7]),
			Names:    list(f[8]),
		}
		in.MatrixCores = in.Matrix != ""
		if in.Backend != ROCm && in.Backend != CUDA {
			return nil, fmt.Errorf("line %d: backend %q", i+1, f[1])
		}
		if seen[in.Arch] {
			return nil, fmt.Errorf("line %d: %s listed twice", i+1, in.Arch)
		}
		seen[in.Arch] = true
		out = append(out, in)
	}
	return out, nil
}

func dash(s string) string {
	if s == "-" {
		return ""
	}
	return s
}

func list(s string) []string {
	if s == "-" || s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

// Lookup returns the table row for an architecture in any canonical
// spelling: "gfx942", "gfx942:sramecc+:xnack-", "sm_90", "sm_90a".
func Lookup(arch string) (Info, bool) {
	in, ok := byArch(processor(arch))
	return in, ok
}

// Known returns every processor of backend b in table order (by generation).
func Known(b Backend) []Info {
	var out []Info
	for _, in := range table() {
		if in.Backend == b {
			out = append(out, in)
		}
	}
	return out
}

// processor strips target-ID features and NVIDIA variant suffixes.
func processor(arch string) string {
	if i := strings.IndexByte(arch, ':'); i >= 0 {
		arch = arch[:i]
	}
	if strings.HasPrefix(arch, "sm_") {
		arch = strings.TrimRight(arch, "af")
	}
	return arch
}
