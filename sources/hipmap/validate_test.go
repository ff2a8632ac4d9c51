package hipmap

import (
	"regexp"
	"sort"
	"strings"
	"testing"
	"testing/fstest"
)

// wantFamilies are the families the translator's diagnostics and --stats
// name; each must hold at least one entry.
var wantFamilies = []string{
	"bf16", "complex", "cooperative_groups", "cub", "cublas", "cublaslt", "cufft",
	"curand", "cusolver", "cusparse", "cutensor", "device", "driver", "fp16", "fp8",
	"headers", "math", "nvrtc", "nvtx", "pytorch", "runtime", "thrust", "vector", "wmma",
}

// minRenames is the breadth goal: distinct CUDA names (identifiers and
// headers) with a supported or deprecated HIP name that differs from the
// CUDA spelling in at least one ROCm release.
const minRenames = 4500

func TestEmbeddedTablesLoad(t *testing.T) {
	if _, err := Load(embeddedData, "data"); err != nil {
		t.Fatal(err)
	}
	if got := Default().Version(); got != TableVersion {
		t.Errorf("Default().Version() = %s, TableVersion = %s", got, TableVersion)
	}
}

func TestFamiliesNonEmpty(t *testing.T) {
	count := map[string]int{}
	for _, e := range Default().Entries() {
		count[e.Family]++
	}
	for _, f := range wantFamilies {
		if count[f] == 0 {
			t.Errorf("family %s has no entries", f)
		}
	}
	if got, want := strings.Join(Default().Families(), ","), strings.Join(wantFamilies, ","); got != want {
		t.Errorf("families:\n got %s\nwant %s", got, want)
	}
}

func TestNoOverlappingEntries(t *testing.T) {
	type key struct {
		kind Kind
		name string
	}
	seen := map[key][]Entry{}
	for _, e := range Default().Entries() {
		k := key{e.Kind, e.CUDA}
		for _, o := range seen[k] {
			if overlap(o, e) {
				t.Errorf("%s %s: %s entry [%v, %v) overlaps %s entry [%v, %v)",
					e.Kind, e.CUDA, o.Family, o.MinROCm, o.MaxROCm, e.Family, e.MinROCm, e.MaxROCm)
			}
		}
		seen[k] = append(seen[k], e)
	}
}

func TestEntriesAreWellFormed(t *testing.T) {
	for _, e := range Default().Entries() {
		switch {
		case e.Status == Unsupported && e.HIP != "":
			t.Errorf("%s: unsupported but has HIP name %q", e.CUDA, e.HIP)
		case e.Status != Unsupported && e.HIP == "":
			t.Errorf("%s: %s but has no HIP name", e.CUDA, e.Status)
		case e.Kind == Identifier && e.Family == "headers":
			t.Errorf("%s: kind %s in family %s", e.CUDA, e.Kind, e.Family)
		}
		if e.Kind == Header && !headerRE.MatchString(e.CUDA) {
			t.Errorf("%s: not an include path", e.CUDA)
		}
		if e.Kind == Header && e.HIP != "" && !headerRE.MatchString(e.HIP) {
			t.Errorf("%s: HIP header %q is not an include path", e.CUDA, e.HIP)
		}
		if e.Kind == Identifier && !identRE.MatchString(e.CUDA) {
			t.Errorf("%s: CUDA name is not an identifier or qualified name", e.CUDA)
		}
		if e.Kind == Identifier && e.HIP != "" && !identRE.MatchString(e.HIP) {
			t.Errorf("%s: HIP name %q is not an identifier or qualified name", e.CUDA, e.HIP)
		}
	}
}

var headerRE = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_./+-]*\.(h|hpp|cuh|hh|inl)$`)

var identRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(::[A-Za-z_][A-Za-z0-9_]*)*$`)

// hipLike matches the spellings of HIP and ROCm library names. The other
// accepted targets are listed in hipExceptions with the reason.
var hipLike = regexp.MustCompile(`^(_*(?i:hip)|ihip|make_hip|(BEGIN|END)_HIPCUB_|roc|ROC|thrust::(system::)?hip|THRUST_\w*HIP|rocprim::)`)

var hipHeaderLike = regexp.MustCompile(`^(hip|roc|rccl|thrust/system/hip/)`)

// torchLike matches ROCm PyTorch's names (family pytorch): PyTorch's own
// spellings with HIP, ROCM, MIOpen or MasqueradingAsCUDA in them (getStreamFromPoolMasqueradingAsCUDA,
// USE_ROCM, ATen/hip/HIPContext.h, ATen/miopen/Handle.h).
var torchLike = regexp.MustCompile(`HIP|hip|ROCM|miopen|MasqueradingAsCUDA`)

var hipExceptions = map[string]string{
	"int":              "cusolver_int_t is a typedef of int; hipSOLVER takes int",
	"textureReference": "HIP's texture reference struct keeps the CUDA runtime spelling",
	"__float2bfloat16": "HIP's round-to-nearest-even conversion keeps CUDA's name; CUDA's __float2bfloat16_rn is the same conversion",
}

func TestHIPNamesLookLikeHIP(t *testing.T) {
	for _, e := range Default().Entries() {
		if e.Status == Unsupported || e.HIP == e.CUDA {
			continue
		}
		if _, ok := hipExceptions[e.HIP]; ok {
			continue
		}
		re := hipLike
		switch {
		case e.Family == "pytorch":
			re = torchLike
		case e.Kind == Header:
			re = hipHeaderLike
		}
		if !re.MatchString(e.HIP) {
			t.Errorf("%s %s -> %s (family %s) does not look like a HIP name", e.Kind, e.CUDA, e.HIP, e.Family)
		}
	}
}

func TestBreadth(t *testing.T) {
	type counts struct{ renames, same, deprecated, unsupported, later int }
	per := map[string]*counts{}
	renamed := map[string]bool{}
	for _, e := range Default().Entries() {
		c := per[e.Family]
		if c == nil {
			c = &counts{}
			per[e.Family] = c
		}
		switch {
		case e.Status == Unsupported:
			c.unsupported++
		case e.HIP == e.CUDA:
			c.same++
		default:
			c.renames++
			renamed[e.Kind.String()+" "+e.CUDA] = true
			if e.Status == Deprecated {
				c.deprecated++
			}
			if DefaultROCm.Less(e.MinROCm) {
				c.later++
			}
		}
	}
	fams := make([]string, 0, len(per))
	for f := range per {
		fams = append(fams, f)
	}
	sort.Strings(fams)
	var total counts
	t.Logf("%-20s %8s %10s %8s %11s %12s", "family", "renames", "deprecated", "same", "unsupported", "after-5.2")
	for _, f := range fams {
		c := per[f]
		t.Logf("%-20s %8d %10d %8d %11d %12d", f, c.renames, c.deprecated, c.same, c.unsupported, c.later)
		total.renames += c.renames
		total.deprecated += c.deprecated
		total.same += c.same
		total.unsupported += c.unsupported
		total.later += c.later
	}
	t.Logf("%-20s %8d %10d %8d %11d %12d", "total", total.renames, total.deprecated, total.same, total.unsupported, total.later)
	t.Logf("distinct CUDA names with a HIP rename: %d (goal %d)", len(renamed), minRenames)
	if len(renamed) < minRenames {
		t.Errorf("only %d distinct CUDA names map to a HIP name, want at least %d", len(renamed), minRenames)
	}
}

func TestLoadRejectsBadData(t *testing.T) {
	cases := map[string]string{
		"identity":         "cudaFoo\tcudaFoo\n",
		"no hip":           "cudaFoo\t-\n",
		"unsupported name": "cudaFoo\thipFoo\tunsupported\n",
		"bad status":       "cudaFoo\thipFoo\tmaybe\n",
		"bad range":        "cudaFoo\thipFoo\tok\t6.0..5.0\n",
		"range syntax":     "cudaFoo\thipFoo\tok\t6.0\n",
		"one field":        "cudaFoo\n",
		"overlap":          "cudaFoo\thipFoo\tok\t5.0..\ncudaFoo\thipBar\tok\t..6.0\n",
	}
	for name, data := range cases {
		fsys := fstest.MapFS{"d/runtime.tsv": {Data: []byte("# c\n" + data)}}
		_, err := Load(fsys, "d")
		if err == nil {
			t.Errorf("%s: Load accepted %q", name, data)
			continue
		}
		if name != "overlap" && !strings.Contains(err.Error(), "d/runtime.tsv:2:") {
			t.Errorf("%s: error %q does not name file and line", name, err)
		}
	}
}
