package archdetect

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// checkChoice asserts the result and that exactly one step decided, the
// one named by Source.
func checkChoice(t *testing.T, name string, c Choice, err error, wantSource string, want ...string) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if c.Source != wantSource || !slices.Equal(c.Archs, want) {
		t.Errorf("%s: %s; want %v from %s", name, c.Line(), want, wantSource)
	}
	var used []string
	for _, s := range c.Steps {
		if s.Used {
			used = append(used, s.Source)
		}
	}
	if !slices.Equal(used, []string{wantSource}) {
		t.Errorf("%s: steps used %v, want exactly [%s]", name, used, wantSource)
	}
}

func stepNote(c Choice, source string) string {
	for _, s := range c.Steps {
		if s.Source == source {
			return s.Note
		}
	}
	return "(no step " + source + ")"
}

func TestResolveFlagWinsOverEverything(t *testing.T) {
	h := fixtureHost(t, "standin-mi300x", map[string]string{"HIPGEN_ROCM_ARCHS": "gfx90a", "PYTORCH_ROCM_ARCH": "gfx1100"})
	c, err := Resolve(h, Request{Backend: ROCm, Flag: []string{"gfx1030,gfx90a", "gfx1030"}, Defaults: []string{"gfx906"}})
	checkChoice(t, "flag", c, err, "--rocm-arch", "gfx1030", "gfx90a")
	if n := stepNote(c, "HIPGEN_ROCM_ARCHS"); !strings.Contains(n, "ignored: --rocm-arch takes precedence") {
		t.Errorf("a set but overridden variable must say so, got %q", n)
	}
	if n := stepNote(c, "host detection"); !strings.Contains(n, "not consulted") {
		t.Errorf("detection after an explicit setting: %q", n)
	}
}

// Each variable beats every later one, for both backends.
func TestResolveEnvOrder(t *testing.T) {
	for _, b := range []Backend{ROCm, CUDA} {
		vars := EnvVars(b)
		vals := map[Backend][]string{
			ROCm: {"gfx90a", "gfx942", "gfx1100", "gfx1030", "gfx906"},
			CUDA: {"sm_90", "8.0", "86"},
		}[b]
		want := map[Backend][]string{ROCm: {"gfx90a", "gfx942", "gfx1100", "gfx1030", "gfx906"}, CUDA: {"sm_90", "sm_80", "sm_86"}}[b]
		if len(vars) != len(vals) {
			t.Fatalf("%s: %d variables, test has %d values", b, len(vars), len(vals))
		}
		for i := range vars {
			env := map[string]string{}
			for j := i; j < len(vars); j++ {
				env[vars[j]] = vals[j]
			}
			c, err := Resolve(fixtureHost(t, "", env), Request{Backend: b, Defaults: nil})
			checkChoice(t, vars[i], c, err, vars[i], want[i])
		}
	}
	if got := EnvVars(ROCm)[:4]; !slices.Equal(got, []string{"HIPGEN_ROCM_ARCHS", "PYTORCH_ROCM_ARCH", "CMAKE_HIP_ARCHITECTURES", "GPU_TARGETS"}) {
		t.Errorf("ROCm variables %v", got)
	}
	if got := EnvVars(CUDA); !slices.Equal(got, []string{"HIPGEN_CUDA_ARCHS", "TORCH_CUDA_ARCH_LIST", "CUDAARCHS"}) {
		t.Errorf("CUDA variables %v", got)
	}
}

// vllm#22590: an explicit setting is never overridden by what the host has.
func TestResolveExplicitBeatsDetection(t *testing.T) {
	h := fixtureHost(t, "standin-mi300x", map[string]string{"PYTORCH_ROCM_ARCH": "gfx90a"})
	c, err := Resolve(h, Request{Backend: ROCm, Defaults: []string{"gfx942"}})
	checkChoice(t, "env over detection", c, err, "PYTORCH_ROCM_ARCH", "gfx90a")
	if c.Line() != "rocm archs gfx90a (from PYTORCH_ROCM_ARCH)" {
		t.Errorf("Line() = %q", c.Line())
	}
	h = fixtureHost(t, "standin-h100", map[string]string{"TORCH_CUDA_ARCH_LIST": "8.0;8.6+PTX"})
	c, err = Resolve(h, Request{Backend: CUDA})
	checkChoice(t, "cuda env over detection", c, err, "TORCH_CUDA_ARCH_LIST", "sm_80", "sm_86")
	if n := stepNote(c, "TORCH_CUDA_ARCH_LIST"); !strings.Contains(n, "+PTX dropped") {
		t.Errorf("the dropped +PTX must be reported, got %q", n)
	}
}

func TestResolveDetectionBeatsDefaults(t *testing.T) {
	c, err := Resolve(fixtureHost(t, "standin-mi250x", nil), Request{Backend: ROCm, Defaults: []string{"gfx942"}})
	checkChoice(t, "detection", c, err, "KFD sysfs", "gfx90a")
	if n := stepNote(c, ManifestSource); !strings.Contains(n, "not consulted") {
		t.Errorf("manifest step after detection: %q", n)
	}
	c, err = Resolve(fixtureHost(t, "standin-mixed-a100-h100", nil), Request{Backend: CUDA, Defaults: []string{"sm_70"}})
	checkChoice(t, "cuda detection", c, err, "nvidia-smi", "sm_80", "sm_90")
}

func TestResolveDefaultsLast(t *testing.T) {
	c, err := Resolve(fixtureHost(t, "standin-cpu-only", nil), Request{Backend: ROCm, Defaults: []string{"gfx942:xnack-:sramecc+", "gfx90a"}})
	checkChoice(t, "defaults", c, err, ManifestSource, "gfx90a", "gfx942:sramecc+:xnack-")
	if c.Line() != "rocm archs gfx90a,gfx942:sramecc+:xnack- (from manifest default)" {
		t.Errorf("Line() = %q", c.Line())
	}
	_, err = Resolve(fixtureHost(t, "", nil), Request{Backend: ROCm, Defaults: []string{"gfx90a", "gfx90a:xnack+"}})
	if err == nil || !strings.Contains(err.Error(), "manifest rocm.archs: ") || !strings.Contains(err.Error(), "cannot be built together") {
		t.Errorf("conflicting target IDs in the manifest: %v", err)
	}
	_, err = Resolve(fixtureHost(t, "", nil), Request{Backend: CUDA, Defaults: []string{"sm_80", "9.0"}})
	if err == nil || !strings.Contains(err.Error(), "manifest cuda.archs[1]") || !strings.Contains(err.Error(), `write "sm_90"`) {
		t.Errorf("a lenient spelling in the manifest must be rejected with its position, got %v", err)
	}
}

// pytorch#66333, pytorch#171264: no GPU and no setting is an error that
// says how to set one, never an empty list.
func TestResolveNothingIsAnError(t *testing.T) {
	for _, b := range []Backend{ROCm, CUDA} {
		c, err := Resolve(fixtureHost(t, "recorded-gpuless-host", nil), Request{Backend: b})
		if !errors.Is(err, ErrNoArch) || len(c.Archs) != 0 {
			t.Fatalf("%s: %v, %v; want ErrNoArch", b, c.Archs, err)
		}
		if !strings.Contains(err.Error(), FlagName(b)) || !strings.Contains(err.Error(), "hipgen.jsonnet") {
			t.Errorf("%s: error %q must say how to set an arch", b, err)
		}
		if len(c.Steps) < 5 {
			t.Errorf("%s: %d steps; every source must be reported", b, len(c.Steps))
		}
	}
}

// A broken explicit setting stops the build; falling through to
// detection would build for something the user did not ask for.
func TestResolveBadExplicitSettingIsAnError(t *testing.T) {
	for _, tc := range []struct {
		env     map[string]string
		flag    []string
		b       Backend
		wantMsg string
	}{
		{map[string]string{"PYTORCH_ROCM_ARCH": "gfx943"}, nil, ROCm, `environment variable PYTORCH_ROCM_ARCH="gfx943"`},
		{map[string]string{"TORCH_CUDA_ARCH_LIST": ";"}, nil, CUDA, "names no architecture"},
		{map[string]string{"CUDAARCHS": "all"}, nil, CUDA, "list the architectures explicitly"},
		{nil, []string{"gfx9000"}, ROCm, "--rocm-arch gfx9000"},
		{nil, []string{","}, CUDA, "--cuda-arch ,"},
	} {
		_, err := Resolve(fixtureHost(t, "standin-mi300x", tc.env), Request{Backend: tc.b, Flag: tc.flag, Defaults: []string{"gfx90a"}})
		if err == nil || !strings.Contains(err.Error(), tc.wantMsg) || errors.Is(err, ErrNoArch) {
			t.Errorf("%v %v: error %v; want one saying %q", tc.env, tc.flag, err, tc.wantMsg)
		}
	}
}

// "native" (CMake's spelling) asks for detection explicitly; with no GPU
// it fails rather than falling back to the manifest.
func TestResolveNative(t *testing.T) {
	c, err := Resolve(fixtureHost(t, "standin-rx7900xtx", map[string]string{"CMAKE_HIP_ARCHITECTURES": "native"}), Request{Backend: ROCm, Defaults: []string{"gfx90a"}})
	checkChoice(t, "native", c, err, "KFD sysfs", "gfx1100")
	_, err = Resolve(fixtureHost(t, "standin-cpu-only", nil), Request{Backend: ROCm, Flag: []string{"native"}, Defaults: []string{"gfx90a"}})
	if !errors.Is(err, ErrNoArch) || !strings.Contains(err.Error(), "--rocm-arch=native") {
		t.Errorf("native without a GPU: %v", err)
	}
}

func TestResolveUnknownBackend(t *testing.T) {
	if _, err := Resolve(Host{}, Request{Backend: "metal"}); err == nil {
		t.Error("Resolve accepted backend metal")
	}
}

// NoDetect keeps a build hermetic: the host's GPUs are not looked at.
func TestResolveNoDetect(t *testing.T) {
	c, err := Resolve(fixtureHost(t, "standin-mi300x", nil), Request{Backend: ROCm, Defaults: []string{"gfx90a"}, NoDetect: true})
	checkChoice(t, "no detection", c, err, ManifestSource, "gfx90a")
	if n := stepNote(c, "host detection"); n != "skipped: detection turned off" {
		t.Errorf("host detection step: %q", n)
	}
	_, err = Resolve(fixtureHost(t, "standin-mi300x", map[string]string{"CMAKE_HIP_ARCHITECTURES": "native"}), Request{Backend: ROCm, NoDetect: true})
	if !errors.Is(err, ErrNoArch) || !strings.Contains(err.Error(), "CMAKE_HIP_ARCHITECTURES=native asks for detection, which is turned off") {
		t.Errorf("native with detection off: %v", err)
	}
}
