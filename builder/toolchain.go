package builder

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Platform names a way of compiling and running a project's GPU code.
type Platform string

// The platforms hipgen builds for. ROCm and CUDA are the two GPU backends;
// HIPCPU runs the translated HIP code on the host through ROCm's HIP-CPU
// headers, with 64-wide wavefronts.
const (
	ROCm   Platform = "rocm"
	CUDA   Platform = "cuda"
	HIPCPU Platform = "hip-cpu"
)

// ErrCompilerMissing is returned when a platform's compiler is not installed.
var ErrCompilerMissing = errors.New("compiler not found")

// Cmd is one external command. Path is absolute or found on PATH by the
// runner; Env is the complete environment; Dir is the working directory.
type Cmd struct {
	Path string
	Args []string
	Env  []string
	Dir  string
}

// Runner runs external commands. The builder reaches compilers, archivers
// and test binaries only through it, so tests can observe or replace them.
type Runner interface {
	Run(ctx context.Context, c Cmd) (stdout, stderr []byte, err error)
}

// ExecRunner runs commands with os/exec.
type ExecRunner struct{}

// Run implements Runner.
func (ExecRunner) Run(ctx context.Context, c Cmd) ([]byte, []byte, error) {
	cmd := exec.CommandContext(ctx, c.Path, c.Args...)
	cmd.Env = c.Env
	cmd.Dir = c.Dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	return out.Bytes(), errb.Bytes(), err
}

// Toolchain is one platform's resolved compiler. Build treats it as input:
// the caller decides the platform, finds the compiler and the archs.
type Toolchain struct {
	Platform Platform
	// Compiler is the absolute path of hipcc, nvcc or the host C++ compiler.
	Compiler string
	// Version is the compiler's --version text; it is part of every key.
	Version string
	// Archs are canonical architecture names (gfx90a, sm_90); empty for HIPCPU.
	Archs []string
	// Env holds variables added to the compiler's environment (HIP_PLATFORM=amd).
	Env []string
	// HIPCPURoot is HIP-CPU's checkout (HIPCPU only).
	HIPCPURoot string
	// HostCompiler is nvcc's -ccbin, when set.
	HostCompiler string
	// Archiver is the ar binary used for static libraries.
	Archiver string
}

// compilerSpec says where each platform's compiler comes from.
type compilerSpec struct {
	name    string // file looked up on PATH
	envVar  string // overriding variable
	install string // how to install it
}

// compilerSpecs returns a platform's compiler. (A switch: a map literal
// is built at every start.)
func compilerSpecs(p Platform) (compilerSpec, bool) {
	switch p {
	case ROCm:
		return compilerSpec{"hipcc", "HIPGEN_HIPCC", "install ROCm's HIP compiler, e.g. 'apt-get install hipcc' on Debian/Ubuntu or the ROCm packages from repo.radeon.com"}, true
	case CUDA:
		return compilerSpec{"nvcc", "HIPGEN_NVCC", "install the CUDA toolkit, e.g. 'apt-get install nvidia-cuda-toolkit' on Debian/Ubuntu or NVIDIA's CUDA packages"}, true
	case HIPCPU:
		return compilerSpec{"g++", "HIPGEN_CXX", "install a C++17 compiler and TBB, e.g. 'apt-get install g++ libtbb-dev'"}, true
	}
	return compilerSpec{}, false
}

// CompilerName returns the command a platform compiles with (hipcc, nvcc, g++).
func CompilerName(p Platform) string {
	spec, _ := compilerSpecs(p)
	return spec.name
}

// Host is the outside world a toolchain is found in.
type Host struct {
	Getenv   func(string) string
	LookPath func(string) (string, error)
	Runner   Runner
	// Environ is the environment children start from.
	Environ []string
}

// FindCompiler returns the absolute path of p's compiler, honouring the
// HIPGEN_HIPCC / HIPGEN_NVCC / HIPGEN_CXX overrides, or an error wrapping
// ErrCompilerMissing that says how to install it.
func FindCompiler(h Host, p Platform) (string, error) {
	spec, ok := compilerSpecs(p)
	if !ok {
		return "", fmt.Errorf("unknown platform %q", p)
	}
	name := spec.name
	if v := h.Getenv(spec.envVar); v != "" {
		name = v
	}
	path, err := h.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("%s: %w on PATH; %s (or point %s at it)", name, ErrCompilerMissing, spec.install, spec.envVar)
	}
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	return path, nil
}

// NewToolchain finds p's compiler and its version. The version is read once
// per compiler file (path, size, modification time) and kept in the cache,
// so a no-op build runs no compiler at all, not even for --version.
func NewToolchain(ctx context.Context, h Host, c *Cache, p Platform, archs []string) (*Toolchain, error) {
	compiler, err := FindCompiler(h, p)
	if err != nil {
		return nil, err
	}
	tc := &Toolchain{Platform: p, Compiler: compiler, Archs: archs}
	switch p {
	case ROCm:
		// Debian's hipcc picks the NVIDIA platform when nvcc is on PATH.
		tc.Env = []string{"HIP_PLATFORM=amd"}
	case CUDA:
		// Debian's nvcc ships a g++ wrapper that selects the newest g++ it
		// supports, so no -ccbin is needed there; HIPGEN_NVCC_CCBIN names
		// another host compiler where the default one is too new.
		tc.HostCompiler = h.Getenv("HIPGEN_NVCC_CCBIN")
	case HIPCPU:
		tc.HIPCPURoot = h.Getenv("HIP_CPU_ROOT")
		if tc.HIPCPURoot == "" {
			return nil, errors.New("HIP_CPU_ROOT is not set: point it at a checkout of ROCm's HIP-CPU (github.com/ROCm/HIP-CPU)")
		}
		if _, err := os.Stat(filepath.Join(tc.HIPCPURoot, "include", "hip", "hip_runtime.h")); err != nil {
			return nil, fmt.Errorf("HIP_CPU_ROOT=%s does not hold include/hip/hip_runtime.h", tc.HIPCPURoot)
		}
	}
	if tc.Archiver, err = h.LookPath("ar"); err != nil {
		return nil, fmt.Errorf("ar: %w on PATH; install binutils", ErrCompilerMissing)
	}
	st, err := os.Stat(compiler)
	if err != nil {
		return nil, err
	}
	id := keyOf(compiler, fmt.Sprint(st.Size()), fmt.Sprint(st.ModTime().UnixNano()))
	tc.Version, err = c.Memo(id, func() (string, error) {
		out, errOut, err := h.Runner.Run(ctx, Cmd{Path: compiler, Args: []string{"--version"}, Env: tc.env(h.Environ)})
		if err != nil {
			return "", fmt.Errorf("%s --version: %v\n%s", compiler, err, errOut)
		}
		return string(out), nil
	})
	return tc, err
}

// Identity is the part of every cache key that names the compiler.
func (tc *Toolchain) Identity() string {
	return strings.Join([]string{string(tc.Platform), tc.Compiler, tc.Version, tc.HostCompiler, tc.HIPCPURoot, strings.Join(tc.Env, " ")}, "\n")
}

// VersionLine is the first non-empty line of the version text, for messages.
func (tc *Toolchain) VersionLine() string {
	for _, l := range strings.Split(tc.Version, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "nvcc: NVIDIA") && !strings.HasPrefix(l, "Copyright") && !strings.HasPrefix(l, "Built on") {
			return l
		}
	}
	return ""
}

func (tc *Toolchain) env(base []string) []string {
	env := append([]string(nil), base...)
	return append(env, tc.Env...)
}

// archFlags returns the per-architecture code generation flags. nvcc gets
// SASS for every arch and PTX for the newest, so the binary also runs on
// GPUs newer than the list.
func (tc *Toolchain) archFlags() []string {
	var out []string
	switch tc.Platform {
	case ROCm:
		for _, a := range tc.Archs {
			out = append(out, "--offload-arch="+a)
		}
	case CUDA:
		for i, a := range tc.Archs {
			num := strings.TrimPrefix(a, "sm_")
			code := "sm_" + num
			if i == len(tc.Archs)-1 {
				code = "[sm_" + num + ",compute_" + num + "]"
			}
			out = append(out, "-gencode", "arch=compute_"+num+",code="+code)
		}
	}
	return out
}

// hipCPUFlags are the flags every HIP-CPU compile gets.
func (tc *Toolchain) hipCPUFlags(compatHeader string) []string {
	// -isystem keeps warnings from HIP-CPU's headers out of the user's -Wall.
	return []string{"-std=c++17", "-O2", "-pthread", "-isystem", filepath.Join(tc.HIPCPURoot, "include"), "-include", compatHeader}
}
