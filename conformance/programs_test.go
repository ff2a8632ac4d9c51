package conformance

import (
	"bytes"
	"fmt"
	"github.com/hipgen/hipgen/internal/testtool"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/hipgen/hipgen/diag"
	"github.com/hipgen/hipgen/sources"
)

// hipArchs are the AMD targets every translation must compile for: two
// wave64 CDNA parts and one wave32 RDNA part.
var hipArchs = []string{"gfx90a", "gfx940", "gfx1030"}

// programs returns the conformance programs, sorted. Finding none is a
// failure, not a pass: a renamed directory must not turn the test green.
func programs(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "*.cu"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no conformance programs in testdata/*.cu")
	}
	sort.Strings(files)
	return files
}

// A translator turns one CUDA file into HIP source. ggl asks for
// hipLaunchKernelGGL launches, which HIP-CPU needs.
type translator struct {
	name      string
	translate func(path string, ggl bool) (out []byte, log string, err error)
}

// hipgenTranslator calls the translator in process; error diagnostics fail.
func hipgenTranslator() translator {
	return translator{name: "hipgen", translate: func(path string, ggl bool) ([]byte, string, error) {
		src, err := os.ReadFile(path)
		if err != nil {
			return nil, "", err
		}
		opts := sources.Options{Launch: sources.LaunchChevron, SourcePath: filepath.ToSlash(path)}
		if ggl {
			opts.Launch = sources.LaunchGGL
		}
		out, diags := sources.Translate(filepath.Base(path), src, opts)
		var log bytes.Buffer
		if err := diag.WriteText(&log, diags); err != nil {
			return nil, "", err
		}
		for _, d := range diags {
			if d.Severity == diag.Error {
				return out, log.String(), fmt.Errorf("translation reported errors")
			}
		}
		return out, log.String(), nil
	}}
}

// hipifyPerlTranslator runs ROCm's hipify-perl, for comparison only
// (bench/oracle.sh selects it with HIPGEN_CONFORMANCE_HIPIFY_PERL).
func hipifyPerlTranslator(script string) translator {
	return translator{name: "hipify-perl", translate: func(path string, ggl bool) ([]byte, string, error) {
		args := []string{script, "-quiet-warnings"}
		if ggl {
			args = append(args, "-hip-kernel-execution-syntax")
		}
		cmd := exec.Command("perl", append(args, path)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		return out, stderr.String(), err
	}}
}

// chosenTranslator is hipgen unless HIPGEN_CONFORMANCE_HIPIFY_PERL names a
// hipify-perl script, in which case the same checks judge hipify-perl.
func chosenTranslator() translator {
	if script := os.Getenv("HIPGEN_CONFORMANCE_HIPIFY_PERL"); script != "" {
		return hipifyPerlTranslator(script)
	}
	return hipgenTranslator()
}

// TestPrograms compiles every original with nvcc, compiles its translation
// with hipcc for each of hipArchs, and runs the translation on HIP-CPU where
// HIP_CPU_ROOT is set.
func TestPrograms(t *testing.T) {
	progs := programs(t)
	tr := chosenTranslator()
	poison := t.TempDir()
	n, err := ShadowCUDAHeaders(poison, "/usr/include")
	if err != nil {
		t.Fatalf("shadowing CUDA headers: %v", err)
	}
	t.Logf("translator %s; %d CUDA headers shadowed for HIP compiles", tr.name, n)
	for _, p := range progs {
		name := strings.TrimSuffix(filepath.Base(p), ".cu")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			t.Run("nvcc", func(t *testing.T) { checkNVCC(t, p) })
			t.Run("hipcc", func(t *testing.T) { checkHIPCC(t, tr, p, poison) })
			t.Run("hip-cpu", func(t *testing.T) { checkHIPCPU(t, tr, p, poison) })
		})
	}
}

// checkNVCC compiles the CUDA original: the programs must be valid CUDA,
// or a translator passing them would prove nothing.
func checkNVCC(t *testing.T, prog string) {
	nvcc := testtool.Require(t, "nvcc")
	obj := filepath.Join(t.TempDir(), "prog.o")
	out, err := run("", nil, 3*time.Minute, nvcc, "-arch=sm_80", "-ccbin", "g++", "-c", prog, "-o", obj)
	if err != nil {
		t.Fatalf("nvcc %s: %v\n%s", prog, err, tail(out, 30))
	}
}

// translated translates prog, fails on translator errors or a surviving
// CUDA header, and writes the result into a fresh directory.
func translated(t *testing.T, tr translator, prog string, ggl bool) string {
	t.Helper()
	out, log, err := tr.translate(prog, ggl)
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", tr.name, prog, err, tail([]byte(log), 40))
	}
	if len(bytes.TrimSpace(out)) == 0 {
		t.Fatalf("%s %s: empty translation\n%s", tr.name, prog, tail([]byte(log), 40))
	}
	if leaked := CUDAIncludes(out); len(leaked) > 0 {
		t.Fatalf("%s %s: translation still includes CUDA headers %v", tr.name, prog, leaked)
	}
	dst := filepath.Join(t.TempDir(), strings.TrimSuffix(filepath.Base(prog), ".cu")+".hip")
	if err := os.WriteFile(dst, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

// checkHIPCC compiles the translation for every AMD target in one hipcc
// run, with the shadowed CUDA headers first on the include path.
func checkHIPCC(t *testing.T, tr translator, prog, poison string) {
	hipcc := testtool.Require(t, "hipcc")
	src := translated(t, tr, prog, false)
	args := []string{"-I", poison}
	for _, a := range hipArchs {
		args = append(args, "--offload-arch="+a)
	}
	args = append(args, "-c", src, "-o", strings.TrimSuffix(src, ".hip")+".o")
	// Debian's hipcc targets NVIDIA whenever nvcc is on PATH unless told.
	out, err := run("", []string{"HIP_PLATFORM=amd"}, 5*time.Minute, hipcc, args...)
	if err != nil {
		t.Fatalf("hipcc %s (%s translation of %s): %v\n%s", strings.Join(hipArchs, ","), tr.name, prog, err, tail(out, 40))
	}
}

// checkHIPCPU builds the translation against HIP-CPU, runs it and requires
// PASS. HIP-CPU is not packaged, so without HIP_CPU_ROOT this skips, also
// in CI.
func checkHIPCPU(t *testing.T, tr translator, prog, poison string) {
	root := hipCPURoot(t)
	out, err := runOnHIPCPU(t, root, translated(t, tr, prog, true), poison)
	if err != nil || !bytes.Contains(out, []byte("PASS")) {
		t.Fatalf("%s translation of %s on HIP-CPU (64-wide): %v\n%s", tr.name, prog, err, tail(out, 20))
	}
}

// hipCPURoot returns HIP_CPU_ROOT after checking that it is a HIP-CPU copy
// that bench/hip-cpu/patch.sh corrected (each file it patches carries its
// marker), and skips the test when it is unset.
func hipCPURoot(t *testing.T) string {
	t.Helper()
	root := os.Getenv("HIP_CPU_ROOT")
	if root == "" {
		t.Skip("HIP_CPU_ROOT is not set: translations not run (HIP-CPU is not packaged; see bench/hip-cpu/patch.sh)")
	}
	for _, f := range []struct{ path, upstream string }{
		{"src/include/hip/detail/intrinsics.hpp", "sub-warp shuffles"},
		{"include/hip/hip_fp16.h", "__half2 halves (low is y)"},
		{"src/include/hip/detail/types.hpp", "thread numbering (x slowest)"},
	} {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f.path)))
		if err != nil {
			t.Fatalf("HIP_CPU_ROOT=%s is not a HIP-CPU checkout: %v", root, err)
		}
		if !bytes.Contains(b, []byte("hipgen-patched")) {
			t.Fatalf("HIP_CPU_ROOT=%s has upstream's %s; run bench/hip-cpu/patch.sh %s first", root, f.upstream, root)
		}
	}
	return root
}

// runOnHIPCPU compiles a HIP file with g++ against HIP-CPU and the oracle's
// compat headers and returns the program's output. A compile failure fails
// the test; a run failure is returned.
func runOnHIPCPU(t *testing.T, root, src, poison string) ([]byte, error) {
	t.Helper()
	cxx := testtool.Require(t, "g++")
	here, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	exe := strings.TrimSuffix(src, ".hip")
	args := []string{"-std=c++17", "-O1", "-pthread", "-w",
		"-I", poison,
		"-I", filepath.Join(here, "hipcpu", "include"),
		"-I", filepath.Join(root, "include"),
		"-include", filepath.Join(here, "hipcpu", "compat.h"),
		"-x", "c++", src, "-x", "none", "-o", exe, "-ltbb"}
	if out, err := run("", nil, 5*time.Minute, cxx, args...); err != nil {
		t.Fatalf("g++ against HIP-CPU (%s): %v\n%s", src, err, tail(out, 40))
	}
	return run(filepath.Dir(exe), nil, 2*time.Minute, exe)
}
