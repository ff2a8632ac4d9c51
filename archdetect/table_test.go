package archdetect

import (
	"slices"
	"strings"
	"testing"
)

// The list of targets: every one must be in the table.
var (
	wantAMD = strings.Fields(`gfx900 gfx902 gfx904 gfx906 gfx908 gfx909 gfx90a gfx90c gfx940 gfx941 gfx942 gfx950
		gfx1010 gfx1011 gfx1012 gfx1013 gfx1030 gfx1031 gfx1032 gfx1033 gfx1034 gfx1035 gfx1036
		gfx1100 gfx1101 gfx1102 gfx1103 gfx1150 gfx1151 gfx1152 gfx1200 gfx1201`)
	wantNVIDIA = strings.Fields(`sm_60 sm_61 sm_62 sm_70 sm_72 sm_75 sm_80 sm_86 sm_87 sm_89 sm_90
		sm_100 sm_101 sm_103 sm_110 sm_120 sm_121`)
)

func TestTableCoversEveryTarget(t *testing.T) {
	var amd, nv []string
	for _, in := range Known(ROCm) {
		amd = append(amd, in.Arch)
	}
	for _, in := range Known(CUDA) {
		nv = append(nv, in.Arch)
	}
	if !slices.Equal(amd, wantAMD) {
		t.Errorf("AMD targets:\n got %v\nwant %v", amd, wantAMD)
	}
	if !slices.Equal(nv, wantNVIDIA) {
		t.Errorf("NVIDIA targets:\n got %v\nwant %v", nv, wantNVIDIA)
	}
	for _, in := range table() {
		if in.Family == "" || len(in.Names) == 0 {
			t.Errorf("%s: family %q, names %v: every row needs both", in.Arch, in.Family, in.Names)
		}
	}
}

// The wavefront rule the translator depends on: 64 on gfx9, 32 on gfx10+
// and on every NVIDIA part.
func TestTableWaveSize(t *testing.T) {
	for _, in := range table() {
		want := 32
		if strings.HasPrefix(in.Arch, "gfx9") {
			want = 64
		}
		if in.WaveSize != want {
			t.Errorf("%s: wave size %d, want %d", in.Arch, in.WaveSize, want)
		}
	}
}

func TestTableFP8AndMatrix(t *testing.T) {
	for _, in := range table() {
		var fp8 string
		switch {
		case in.Arch == "gfx940" || in.Arch == "gfx941" || in.Arch == "gfx942":
			fp8 = "fnuz"
		case in.Arch == "gfx950" || strings.HasPrefix(in.Arch, "gfx12"):
			fp8 = "ocp"
		case in.Backend == CUDA && numberOf(in.Arch) >= 89:
			fp8 = "ocp"
		}
		if in.FP8 != fp8 {
			t.Errorf("%s: FP8 %q, want %q", in.Arch, in.FP8, fp8)
		}
		if in.MatrixCores != (in.Matrix != "") {
			t.Errorf("%s: MatrixCores %v but Matrix %q", in.Arch, in.MatrixCores, in.Matrix)
		}
	}
	for arch, want := range map[string]string{"gfx908": "mfma", "gfx90a": "mfma", "gfx942": "mfma", "gfx1100": "wmma", "gfx1201": "wmma", "gfx1030": "", "gfx906": "", "sm_60": "", "sm_70": "tensor", "sm_90": "tensor"} {
		if in, _ := Lookup(arch); in.Matrix != want {
			t.Errorf("%s: matrix %q, want %q", arch, in.Matrix, want)
		}
	}
}

func numberOf(sm string) int {
	n := 0
	for _, r := range strings.TrimPrefix(sm, "sm_") {
		n = n*10 + int(r-'0')
	}
	return n
}

func TestLookupStripsFeaturesAndVariants(t *testing.T) {
	for in, want := range map[string]string{
		"gfx942:sramecc+:xnack-": "gfx942",
		"gfx90a:xnack+":          "gfx90a",
		"sm_90a":                 "sm_90",
		"sm_100f":                "sm_100",
		"sm_120":                 "sm_120",
	} {
		info, ok := Lookup(in)
		if !ok || info.Arch != want {
			t.Errorf("Lookup(%q) = %q, %v; want %q", in, info.Arch, ok, want)
		}
	}
	if _, ok := Lookup("gfx803"); ok {
		t.Errorf("Lookup(gfx803) found a target older than gfx900")
	}
	mi300x, _ := Lookup("gfx942")
	if !slices.Contains(mi300x.Names, "Instinct MI300X") || mi300x.Family != "CDNA3" || !slices.Equal(mi300x.Features, []string{"sramecc", "xnack"}) {
		t.Errorf("gfx942 = %+v", mi300x)
	}
	rdna3, _ := Lookup("gfx1100")
	if !slices.Contains(rdna3.Names, "Radeon RX 7900 XTX") || rdna3.Features != nil {
		t.Errorf("gfx1100 = %+v", rdna3)
	}
	h100, _ := Lookup("sm_90")
	if h100.Family != "Hopper" || !slices.Contains(h100.Names, "H100") || !slices.Equal(h100.Variants, []string{"a"}) {
		t.Errorf("sm_90 = %+v", h100)
	}
}

func TestParseTableRejectsBrokenRows(t *testing.T) {
	for _, bad := range []string{
		"gfx900\trocm\tGCN5\t64\t-\t-\t-\t-",        // 8 columns
		"gfx900\trocm\tGCN5\t48\t-\t-\t-\t-\tVega",  // wave 48
		"gfx900\tmetal\tGCN5\t64\t-\t-\t-\t-\tVega", // backend
		"gfx900\trocm\tGCN5\t64\t-\t-\t-\t-\tVega\n" + // duplicate
			"gfx900\trocm\tGCN5\t64\t-\t-\t-\t-\tVega",
	} {
		if _, err := parseTable(bad); err == nil {
			t.Errorf("parseTable(%q) accepted a broken row", bad)
		}
	}
}
