package archdetect

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestCanonicalROCm(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"gfx90a", "gfx90a"},
		{" gfx942 ", "gfx942"},
		{"gfx942:sramecc+:xnack-", "gfx942:sramecc+:xnack-"},
		{"gfx942:xnack-:sramecc+", "gfx942:sramecc+:xnack-"}, // clang's order: features by name
		{"gfx90a:xnack+", "gfx90a:xnack+"},
		{"gfx1010:xnack-", "gfx1010:xnack-"},
		{"gfx1201", "gfx1201"},
		{"gfx950:sramecc-", "gfx950:sramecc-"},
	} {
		got, err := CanonicalROCm(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("CanonicalROCm(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestCanonicalROCmErrors(t *testing.T) {
	for _, tc := range []struct{ in, wantMsg string }{
		{"gfx94", `did you mean "gfx940"?`},
		{"gfx9422", `did you mean "gfx942"?`},
		{"GFX90A", `did you mean "gfx90a"?`},
		{"MI300X", "MI300X is gfx942"},
		{"RX 7900 XTX", "RX 7900 XTX is gfx1100"},
		{"gfx1030:xnack+", `gfx1030 does not have the "xnack" target feature (it takes no features)`},
		{"gfx1100:sramecc+", `gfx1100 does not have the "sramecc" target feature`},
		{"gfx900:sramecc+", `gfx900 does not have the "sramecc" target feature (it takes xnack)`},
		{"gfx90a:xnack+:xnack-", `feature "xnack" given twice`},
		{"gfx90a:xnack", "did you mean"},
		{"gfx803", "older than gfx900"},
		{"sm_90", "want a target ID such as gfx90a"},
		{"", "want a target ID"},
	} {
		_, err := CanonicalROCm(tc.in)
		if err == nil {
			t.Errorf("CanonicalROCm(%q) accepted it", tc.in)
			continue
		}
		if !errors.Is(err, ErrUnknownArch) || !strings.Contains(err.Error(), tc.wantMsg) || !strings.Contains(err.Error(), `"`+tc.in+`"`) {
			t.Errorf("CanonicalROCm(%q) error %q; want ErrUnknownArch naming the input and saying %q", tc.in, err, tc.wantMsg)
		}
	}
}

func TestCanonicalCUDA(t *testing.T) {
	for _, in := range []string{"sm_60", "sm_80", "sm_90", "sm_90a", "sm_100a", "sm_100f", "sm_120f", "sm_121"} {
		got, err := CanonicalCUDA(in)
		if err != nil || got != in {
			t.Errorf("CanonicalCUDA(%q) = %q, %v", in, got, err)
		}
	}
}

// Manifests take only sm_XX; every other spelling is rejected with the
// exact text to write instead.
func TestCanonicalCUDAErrors(t *testing.T) {
	for _, tc := range []struct{ in, wantMsg string }{
		{"sm90", `write "sm_90" in a manifest`},
		{"9.0", `write "sm_90" in a manifest`},
		{"90", `write "sm_90" in a manifest`},
		{"compute_90", `write "sm_90" in a manifest`},
		{"8.6+PTX", `write "sm_86" in a manifest`},
		{"SM_90A", `write "sm_90a" in a manifest`},
		{"sm_80a", `sm_80 has no "a" variant (it has none)`},
		{"sm_90f", `sm_90 has no "f" variant (it has sm_90a)`},
		{"sm_95", `did you mean "sm_90"?`},
		{"H100", "H100 is sm_90"},
		{"Ampere", "want sm_XX"},
		{"gfx90a", "want sm_XX"},
	} {
		_, err := CanonicalCUDA(tc.in)
		if err == nil {
			t.Errorf("CanonicalCUDA(%q) accepted it", tc.in)
			continue
		}
		if !errors.Is(err, ErrUnknownArch) || !strings.Contains(err.Error(), tc.wantMsg) {
			t.Errorf("CanonicalCUDA(%q) error %q; want it to say %q", tc.in, err, tc.wantMsg)
		}
	}
}

// ParseList reads what other tools put in the environment.
func TestParseList(t *testing.T) {
	for _, tc := range []struct {
		b         Backend
		in        string
		want      []string
		wantNotes int
	}{
		{ROCm, "gfx90a;gfx942", []string{"gfx90a", "gfx942"}, 0},                 // CMAKE_HIP_ARCHITECTURES
		{ROCm, "gfx942 gfx90a", []string{"gfx90a", "gfx942"}, 0},                 // PYTORCH_ROCM_ARCH
		{ROCm, "gfx90a,gfx90a,gfx1100", []string{"gfx1100", "gfx90a"}, 0},        // GPU_TARGETS, duplicates
		{ROCm, "GFX942:XNACK-:SRAMECC+", []string{"gfx942:sramecc+:xnack-"}, 0},  // case
		{ROCm, "amdgcn-amd-amdhsa--gfx90a:xnack-", []string{"gfx90a:xnack-"}, 0}, // offload triple
		{CUDA, "8.0;9.0+PTX", []string{"sm_80", "sm_90"}, 1},                     // TORCH_CUDA_ARCH_LIST
		{CUDA, "8.0 8.6 9.0a", []string{"sm_80", "sm_86", "sm_90a"}, 0},          // torch, spaces
		{CUDA, "80;90-real", []string{"sm_80", "sm_90"}, 0},                      // CUDAARCHS
		{CUDA, "90-virtual", []string{"sm_90"}, 1},                               // CUDAARCHS, PTX only
		{CUDA, "Ampere;Hopper", []string{"sm_80", "sm_86", "sm_90"}, 0},          // torch names
		{CUDA, "compute_90,sm_100a,sm90,12.0f", []string{"sm_100a", "sm_120f", "sm_90"}, 0},
		{CUDA, "native", []string{Native}, 0},
		{ROCm, "NATIVE", []string{Native}, 0},
		{ROCm, "gfx90a:xnack- gfx90a:xnack+ gfx942", []string{"gfx90a:xnack+", "gfx90a:xnack-", "gfx942"}, 0}, // clang accepts both signs
	} {
		got, notes, err := ParseList(tc.b, tc.in)
		if err != nil || !slices.Equal(got, tc.want) || len(notes) != tc.wantNotes {
			t.Errorf("ParseList(%s, %q) = %v, notes %q, %v; want %v with %d notes", tc.b, tc.in, got, notes, err, tc.want, tc.wantNotes)
		}
	}
}

func TestParseListErrors(t *testing.T) {
	for _, tc := range []struct {
		b       Backend
		in      string
		wantMsg string
	}{
		{ROCm, ";", "names no architecture"},
		{CUDA, " ", "names no architecture"},
		{ROCm, "gfx90a;gfx943", `did you mean "gfx942"?`},
		{CUDA, "8.0;9.5", `did you mean "sm_90"?`},
		{CUDA, "all", "list the architectures explicitly"},
		{CUDA, "all-major", "list the architectures explicitly"},
		{CUDA, "native;80", "cannot be combined"},
		{CUDA, "Kepler", "want sm_XX"},
		{CUDA, "3.5", "sm_35 is older than sm_60"},
		{CUDA, "8.0a", `sm_80 has no "a" variant`},
		{ROCm, "gfx90a;gfx90a:xnack-", "gfx90a and gfx90a:xnack- cannot be built together"},
		{ROCm, "gfx942:sramecc+ gfx942:xnack-", "gfx942:sramecc+ and gfx942:xnack- cannot be built together"},
	} {
		_, _, err := ParseList(tc.b, tc.in)
		if err == nil || !errors.Is(err, ErrUnknownArch) && !errors.Is(err, ErrArchConflict) || !strings.Contains(err.Error(), tc.wantMsg) {
			t.Errorf("ParseList(%s, %q) error %v; want it to say %q", tc.b, tc.in, err, tc.wantMsg)
		}
	}
}
