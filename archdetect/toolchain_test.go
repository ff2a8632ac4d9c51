package archdetect

import (
	"errors"
	"fmt"
	"github.com/hipgen/hipgen/internal/testtool"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// fakeHIPCompiler answers like clang's HIP driver: it rejects unknown
// processors first (and stops), then processors without a device library.
// The messages are the ones Debian's hipcc 5.2 prints.
func fakeHIPCompiler(known, deviceLibs []string, calls *int) Host {
	return Host{
		Root:     "/nonexistent",
		Getenv:   func(string) string { return "" },
		LookPath: func(name string) (string, error) { return "/opt/fake/bin/" + name, nil },
		Run: func(name string, args ...string) ([]byte, error) {
			if slices.Contains(args, "--version") {
				return []byte("HIP version: 9.9.0-0\nclang version 99.0.0\n"), nil
			}
			*calls++
			var stderr strings.Builder
			var archs []string
			for _, a := range args {
				if arch, ok := strings.CutPrefix(a, "--offload-arch="); ok {
					archs = append(archs, arch)
				}
			}
			for _, a := range archs {
				if !slices.Contains(known, a) {
					fmt.Fprintf(&stderr, "clang: error: invalid target ID '%s'; format is a processor name followed by an optional colon-delimited list of features followed by an enable/disable sign (e.g., 'gfx908:sramecc+:xnack-')\n", a)
				}
			}
			if stderr.Len() == 0 {
				for _, a := range archs {
					if !slices.Contains(deviceLibs, a) {
						fmt.Fprintf(&stderr, "clang: error: cannot find ROCm device library for %s; provide its path via '--rocm-path' or '--rocm-device-lib-path', or pass '-nogpulib' to build without ROCm device library\n", a)
					}
				}
			}
			if stderr.Len() > 0 {
				return nil, &ExitError{Command: "hipcc", Code: 1, Stderr: stderr.String()}
			}
			return nil, nil
		},
	}
}

func TestProbeHIPDropsRejectedProcessors(t *testing.T) {
	calls := 0
	known := []string{"gfx900", "gfx906", "gfx908", "gfx90a", "gfx940", "gfx1030", "gfx1100", "gfx1101"}
	libs := []string{"gfx900", "gfx906", "gfx908", "gfx90a", "gfx940", "gfx1030"}
	h := fakeHIPCompiler(known, libs, &calls)
	tc, err := FindToolchain(h, ROCm)
	if err != nil {
		t.Fatal(err)
	}
	if want := SortArchs(libs); !slices.Equal(tc.Archs, want) {
		t.Errorf("archs %v, want %v", tc.Archs, want)
	}
	if calls != 3 {
		t.Errorf("%d compiler runs; want 3 (unknown IDs, missing libraries, success)", calls)
	}
	if tc.String() != "hipcc 9.9.0-0 (clang 99.0.0)" {
		t.Errorf("String() = %q", tc.String())
	}
	err = CheckToolchain(h, ROCm, []string{"gfx90a:xnack-", "gfx942", "gfx1100"})
	if !errors.Is(err, ErrUnsupportedArch) {
		t.Fatalf("CheckToolchain: %v", err)
	}
	for _, want := range []string{"hipcc 9.9.0-0", "does not build for gfx942, gfx1100", "it supports gfx1030 gfx900 gfx906", "--rocm-arch"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if err := CheckToolchain(h, ROCm, []string{"gfx90a:sramecc+:xnack-", "gfx1030"}); err != nil {
		t.Errorf("supported archs: %v", err)
	}
}

// A Host from RealHost asks each compiler once per run.
func TestProbeCached(t *testing.T) {
	calls := 0
	h := fakeHIPCompiler([]string{"gfx90a"}, []string{"gfx90a"}, &calls)
	h.cache = newToolCache()
	for range 3 {
		if err := CheckToolchain(h, ROCm, []string{"gfx90a"}); err != nil {
			t.Fatal(err)
		}
	}
	if calls != 2 {
		t.Errorf("%d probe runs for three checks; want 2 (one probe, cached)", calls)
	}
}

func TestCheckToolchainNoCompiler(t *testing.T) {
	h := Host{Root: "/nonexistent", LookPath: func(string) (string, error) { return "", exec.ErrNotFound }}
	err := CheckToolchain(h, CUDA, []string{"sm_80"})
	if !errors.Is(err, ErrNoCompiler) || !strings.Contains(err.Error(), "nvcc is not in PATH") {
		t.Errorf("got %v", err)
	}
}

// The installed hipcc, for real: what it accepts must compile, and on
// ROCm 5.x gfx942 (MI300X) is refused here instead of inside the compiler.
func TestRealHipcc(t *testing.T) {
	testtool.Require(t, "hipcc")
	h := RealHost()
	tc, err := FindToolchain(h, ROCm)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s supports %v", tc, tc.Archs)
	if len(tc.Archs) == 0 || tc.Version == "" {
		t.Fatalf("probe found nothing: %+v", tc)
	}
	// Cross-check one accepted and one refused arch against a real compile.
	if _, err := runReal(tc.Path, "-x", "hip", "-nogpuinc", "--cuda-device-only", "-c", "/dev/null", "-o", "/dev/null", "--offload-arch="+tc.Archs[0]); err != nil {
		t.Errorf("probe says %s works, but compiling for it failed: %v", tc.Archs[0], err)
	}
	if strings.HasPrefix(tc.Version, "5.") {
		err := CheckToolchain(h, ROCm, []string{"gfx90a", "gfx942"})
		if !errors.Is(err, ErrUnsupportedArch) || !strings.Contains(err.Error(), "does not build for gfx942") || !strings.Contains(err.Error(), "hipcc "+tc.Version) {
			t.Errorf("ROCm %s and gfx942: %v", tc.Version, err)
		}
		if _, err := runReal(tc.Path, "-x", "hip", "-nogpuinc", "--cuda-device-only", "-c", "/dev/null", "-o", "/dev/null", "--offload-arch=gfx942"); err == nil {
			t.Errorf("hipcc %s compiled for gfx942, which the probe refused", tc.Version)
		}
	}
}

func TestRealNvcc(t *testing.T) {
	testtool.Require(t, "nvcc")
	h := RealHost()
	tc, err := FindToolchain(h, CUDA)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s supports %v", tc, tc.Archs)
	if !slices.Contains(tc.Archs, "sm_80") || tc.Version == "" {
		t.Fatalf("nvcc probe: %+v", tc)
	}
	if err := CheckToolchain(h, CUDA, []string{"sm_80"}); err != nil {
		t.Error(err)
	}
	// sm_90a arrived in CUDA 12.0.
	if strings.HasPrefix(tc.Version, "11.") {
		err := CheckToolchain(h, CUDA, []string{"sm_80", "sm_90a"})
		if !errors.Is(err, ErrUnsupportedArch) || !strings.Contains(err.Error(), "nvcc "+tc.Version+" does not build for sm_90a") {
			t.Errorf("nvcc %s and sm_90a: %v", tc.Version, err)
		}
	}
}

// nvcc lists only base architectures; arch-specific and family variants
// follow the base from the CUDA release that introduced them.
func TestSupportsCUDAVariants(t *testing.T) {
	base := []string{"sm_80", "sm_90", "sm_100"}
	for _, c := range []struct {
		version, arch string
		want          bool
	}{
		{"11.8", "sm_90", true}, {"11.8", "sm_90a", false}, {"12.0", "sm_90a", true},
		{"13.0", "sm_90a", true}, {"12.8", "sm_100f", false}, {"12.9", "sm_100f", true},
		{"13.0", "sm_120a", false}, {"13.0", "sm_86", false},
	} {
		tc := Toolchain{Name: "nvcc", Version: c.version, Archs: base}
		if got := supports(tc, CUDA, c.arch); got != c.want {
			t.Errorf("nvcc %s, %s: supports = %v, want %v", c.version, c.arch, got, c.want)
		}
	}
}
