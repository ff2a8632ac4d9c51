package cmake_test

// Configure-time behaviour with the real cmake, hipcc and nvcc: backend
// choice, architecture precedence and validation, and the committed
// translated tree. Machines that are not here (an MI300X, an MI210 host)
// are stand-in rocm_agent_enumerator scripts under testdata/standin-*.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// configure runs cmake on a fresh copy of examples/vecadd and returns its
// output and whether it succeeded.
func configure(t *testing.T, env []string, args ...string) (string, bool) {
	t.Helper()
	root, _ := copyProject(t, "vecadd")
	out, err := tryIn(root, env, "cmake", append([]string{"-S", ".", "-B", "out"}, args...)...)
	return out, err == nil
}

// standinDir is a stand-in host under testdata: its sys/ tree and its
// rocm_agent_enumerator.
func standinDir(t *testing.T, dir string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("testdata", dir))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func standin(t *testing.T, dir string) string {
	return filepath.Join(standinDir(t, dir), "rocm_agent_enumerator")
}

func TestConfigureROCmArchs(t *testing.T) {
	requireTools(t, "cmake", "hipcc")
	hip := "-DHIPGEN_GPU_BACKEND=HIP"
	for _, tc := range []struct {
		name    string
		env     []string
		args    []string
		ok      bool
		want    []string
		notWant []string
	}{{
		name: "manifest default on this GPU-less machine",
		ok:   true,
		want: []string{"rocm archs gfx1030,gfx90a (from manifest default; no KFD topology under /sys: no amdgpu driver loaded, or no AMD GPU; rocm_agent_enumerator "},
		// rocm_agent_enumerator's traceback on a machine without an AMD
		// GPU never reaches the user.
		notWant: []string{"Traceback", "FileNotFoundError"},
	}, {
		name: "detected on an MI210 host, gfx000 dropped",
		args: []string{"-DHIPGEN_ROCM_AGENT_ENUMERATOR=" + standin(t, "standin-mi210")},
		ok:   true,
		want: []string{"rocm archs gfx90a (from rocm_agent_enumerator)"},
	}, {
		name: "KFD sysfs on an MI210 host comes before rocm_agent_enumerator",
		args: []string{"-DHIPGEN_SYSFS_ROOT=" + standinDir(t, "standin-mi210"),
			"-DHIPGEN_ROCM_AGENT_ENUMERATOR=" + standin(t, "standin-mi300x")},
		ok:   true,
		want: []string{"rocm archs gfx90a (from KFD sysfs)"},
	}, {
		name: "detected MI300X is validated against ROCm 5.2's hipcc",
		args: []string{"-DHIPGEN_ROCM_AGENT_ENUMERATOR=" + standin(t, "standin-mi300x")},
		want: []string{"rocm archs gfx942 (from rocm_agent_enumerator)",
			"AMD GPU architecture gfx942 is not supported by", "set HIPGEN_ROCM_ARCHS"},
	}, {
		name: "PYTORCH_ROCM_ARCH beats detection",
		env:  []string{"PYTORCH_ROCM_ARCH=gfx908;gfx90a"},
		args: []string{"-DHIPGEN_ROCM_AGENT_ENUMERATOR=" + standin(t, "standin-mi300x")},
		ok:   true,
		want: []string{"rocm archs gfx908,gfx90a (from PYTORCH_ROCM_ARCH)"},
	}, {
		name: "CMAKE_HIP_ARCHITECTURES beats everything",
		env:  []string{"PYTORCH_ROCM_ARCH=gfx908", "HIPGEN_ROCM_ARCHS=gfx906"},
		args: []string{"-DCMAKE_HIP_ARCHITECTURES=gfx1030"},
		ok:   true,
		want: []string{"rocm archs gfx1030 (from CMAKE_HIP_ARCHITECTURES)"},
	}, {
		name: "GPU_TARGETS",
		args: []string{"-DGPU_TARGETS=gfx90a:xnack-"},
		ok:   true,
		want: []string{"rocm archs gfx90a:xnack- (from GPU_TARGETS)"},
	}, {
		name: "a misspelt arch is an error naming its source",
		args: []string{"-DHIPGEN_ROCM_ARCHS=sm_80"},
		want: []string{`hipgen: HIPGEN_ROCM_ARCHS: "sm_80" is not an AMD GPU architecture`},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			out, ok := configure(t, testEnv(tc.env...), append([]string{hip, "-DHIPGEN_TRANSLATE=BUILD", "-DHIPGEN_EXECUTABLE=" + hipgenBinary(t)}, tc.args...)...)
			if ok != tc.ok {
				t.Errorf("configure succeeded = %v, want %v:\n%s", ok, tc.ok, out)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(out, w) {
					t.Errorf("output has %q:\n%s", w, out)
				}
			}
			if ok && strings.Count(out, "rocm archs ") != 1 {
				t.Errorf("want exactly one message naming the architectures:\n%s", out)
			}
		})
	}
}

func TestConfigureCUDAArchs(t *testing.T) {
	requireTools(t, "cmake", "nvcc")
	for _, tc := range []struct {
		name string
		env  []string
		args []string
		ok   bool
		want string
	}{
		{"TORCH_CUDA_ARCH_LIST in PyTorch's spelling", []string{"TORCH_CUDA_ARCH_LIST=8.0;9.0+PTX"}, nil, true,
			"cuda archs 80-real,90 (from TORCH_CUDA_ARCH_LIST)"},
		{"CUDAARCHS all-major", []string{"CUDAARCHS=all-major"}, nil, true, "cuda archs all-major (from CUDAARCHS)"},
		{"CMAKE_CUDA_ARCHITECTURES beats the environment", []string{"HIPGEN_CUDA_ARCHS=70"}, []string{"-DCMAKE_CUDA_ARCHITECTURES=86"}, true,
			"cuda archs 86 (from CMAKE_CUDA_ARCHITECTURES)"},
		{"an arch nvcc does not know", nil, []string{"-DHIPGEN_CUDA_ARCHS=sm_95"}, false,
			"CUDA architecture 95 is not supported by"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, ok := configure(t, testEnv(tc.env...), append([]string{"-DHIPGEN_GPU_BACKEND=CUDA"}, tc.args...)...)
			if ok != tc.ok {
				t.Errorf("configure succeeded = %v, want %v:\n%s", ok, tc.ok, out)
			}
			if !strings.Contains(out, tc.want) {
				t.Errorf("output lacks %q:\n%s", tc.want, out)
			}
		})
	}
}

// TestConfigureAuto: with no GPU and both toolchains installed, AUTO says
// what it chose and why.
func TestConfigureAuto(t *testing.T) {
	requireTools(t, "cmake", "nvcc", "hipcc")
	if hasGPU("CUDA") || hasGPU("HIP") {
		t.Skip("this machine has a GPU; AUTO follows it")
	}
	out, ok := configure(t, testEnv())
	if !ok {
		t.Fatalf("configure failed:\n%s", out)
	}
	if !strings.Contains(out, "GPU backend CUDA (AUTO: no GPU found, CUDA compiler ") ||
		!strings.Contains(out, "set HIPGEN_GPU_BACKEND=CUDA or HIP to choose") {
		t.Errorf("AUTO did not explain its choice:\n%s", out)
	}
}

// TestPregenerated: without hipgen the build uses the committed translated
// tree, and says clearly when that tree is missing.
func TestPregenerated(t *testing.T) {
	requireTools(t, "cmake", "hipcc")
	root, p := copyProject(t, "vecadd")
	env := testEnv()
	args := []string{"-S", ".", "-B", "out", "-DHIPGEN_GPU_BACKEND=HIP", "-DHIPGEN_TRANSLATE=PREGENERATED", "-DHIPGEN_ROCM_ARCHS=gfx90a"}
	out, err := tryIn(root, env, "cmake", args...)
	if err == nil || !strings.Contains(out, "hip/apps/vecadd_main.hip is missing: HIPGEN_TRANSLATE=PREGENERATED") {
		t.Fatalf("configure without a translated tree: err=%v, want the missing-tree error:\n%s", err, out)
	}
	// What a maintainer commits: 'hipgen translate' over the whole project.
	runIn(t, root, env, hipgenBinary(t), "translate")
	if _, err := os.Stat(filepath.Join(root, p.Translate.Out)); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(filepath.Join(root, "out"))
	out = runIn(t, root, env, "cmake", args...)
	if !strings.Contains(out, "translation PREGENERATED into "+root+"/hip/ (HIPGEN_TRANSLATE=PREGENERATED)") {
		t.Errorf("configure did not say it uses the committed tree:\n%s", out)
	}
	build := runIn(t, root, env, "cmake", "--build", "out", "-j2")
	if tr := matches(translateLine, build, 1); len(tr) > 0 {
		t.Errorf("PREGENERATED build translated %v", tr)
	}
	if len(matches(buildLine, build, 2)) == 0 {
		t.Errorf("PREGENERATED build compiled nothing:\n%s", build)
	}
}
