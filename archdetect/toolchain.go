package archdetect

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hipgen/hipgen/internal/lazyre"
)

// ErrNoCompiler means the backend's compiler is not installed.
var ErrNoCompiler = errors.New("compiler not found")

// ErrUnsupportedArch means the installed compiler cannot build for an arch.
var ErrUnsupportedArch = errors.New("architecture not supported by the installed compiler")

// Toolchain is an installed GPU compiler and what it can build for.
type Toolchain struct {
	// Name is the command: hipcc, clang-15, nvcc.
	Name string `json:"name"`
	Path string `json:"path"`
	// Version is the compiler's own version ("5.2.21153-0" for hipcc,
	// "11.8" for nvcc); Detail adds what it is built on ("clang 15.0.6").
	Version string `json:"version"`
	Detail  string `json:"detail,omitempty"`
	// Archs are the processors it compiles for: bare gfx names for AMD
	// (the table's, probed), sm_XX with variants for NVIDIA.
	Archs []string `json:"archs"`
}

// String is "hipcc 5.2.21153-0 (clang 15.0.6)".
func (t Toolchain) String() string {
	s := t.Name + " " + t.Version
	if t.Detail != "" {
		s += " (" + t.Detail + ")"
	}
	return s
}

// FindToolchain finds b's compiler (hipcc or nvcc) and probes it. Results
// are cached on a Host from RealHost, so a run asks each compiler once.
// HIPGEN_HIPCC and HIPGEN_NVCC name another compiler, as they do for
// 'hipgen build'.
func FindToolchain(h Host, b Backend) (Toolchain, error) {
	name, override := "nvcc", "HIPGEN_NVCC"
	if b == ROCm {
		name, override = "hipcc", "HIPGEN_HIPCC"
	}
	if v := h.getenv(override); v != "" {
		name = v
	}
	return ProbeCompiler(h, name)
}

// ProbeCompiler probes hipcc, nvcc or a clang that compiles HIP.
func ProbeCompiler(h Host, name string) (Toolchain, error) {
	cache := h.cache
	h = h.withDefaults()
	if cache != nil {
		cache.mu.Lock()
		r, ok := cache.m[name]
		cache.mu.Unlock()
		if ok {
			return r.tc, r.err
		}
	}
	// Not holding the lock while probing lets doctor probe several
	// compilers at once; two racing probes of one compiler agree.
	tc, err := probe(h, name)
	if cache != nil {
		cache.mu.Lock()
		cache.m[name] = toolResult{tc, err}
		cache.mu.Unlock()
	}
	return tc, err
}

func probe(h Host, name string) (Toolchain, error) {
	path, err := h.LookPath(name)
	if err != nil {
		return Toolchain{}, fmt.Errorf("%w: %s is not in PATH", ErrNoCompiler, name)
	}
	tc := Toolchain{Name: filepath.Base(name), Path: path}
	if strings.HasPrefix(tc.Name, "nvcc") {
		return probeNVCC(h, tc)
	}
	return probeHIP(h, tc)
}

var (
	nvccVersionRe  = lazyre.New(`release ([0-9]+\.[0-9]+)`)
	hipVersionRe   = lazyre.New(`HIP version: (\S+)`)
	clangVersionRe = lazyre.New(`clang version ([0-9][0-9.]*)`)
)

func probeNVCC(h Host, tc Toolchain) (Toolchain, error) {
	out, err := h.Run(tc.Path, "--version")
	if err != nil {
		return tc, fmt.Errorf("%s --version: %s", tc.Name, oneLine(err))
	}
	if m := nvccVersionRe.Get().FindStringSubmatch(string(out)); m != nil {
		tc.Version = m[1]
	}
	out, err = h.Run(tc.Path, "--list-gpu-code")
	if err != nil {
		return tc, fmt.Errorf("%s --list-gpu-code: %s", tc.Name, oneLine(err))
	}
	for _, f := range strings.Fields(string(out)) {
		if a, err := CanonicalCUDA(f); err == nil {
			tc.Archs = append(tc.Archs, a)
		}
	}
	tc.Archs = SortArchs(tc.Archs)
	return tc, nil
}

// probeHIP learns which AMD processors a HIP compiler can build for by
// compiling an empty device-only file for every processor in the table at
// once. Clang stops at the first class of error (unknown target IDs, then
// missing device libraries), so the probe drops the processors each error
// names and retries until the rest compile. It costs a few runs of a
// fraction of a second, and asks the exact question a build asks: Debian's
// hipcc 5.2 has clang 15, which knows gfx1100, but no device library for it.
func probeHIP(h Host, tc Toolchain) (Toolchain, error) {
	out, err := h.Run(tc.Path, "--version")
	if err != nil {
		return tc, fmt.Errorf("%s --version: %s", tc.Name, oneLine(err))
	}
	if m := hipVersionRe.Get().FindStringSubmatch(string(out)); m != nil {
		tc.Version = m[1]
	}
	if m := clangVersionRe.Get().FindStringSubmatch(string(out)); m != nil {
		if tc.Version == "" {
			tc.Version = m[1]
		} else {
			tc.Detail = "clang " + m[1]
		}
	}
	var cands []string
	for _, in := range Known(ROCm) {
		cands = append(cands, in.Arch)
	}
	nogpulib := false
	for len(cands) > 0 {
		args := []string{"-x", "hip", "-nogpuinc", "--cuda-device-only", "-c", "/dev/null", "-o", "/dev/null"}
		if nogpulib {
			args = append(args, "-nogpulib")
		}
		for _, a := range cands {
			args = append(args, "--offload-arch="+a)
		}
		_, err := h.Run(tc.Path, args...)
		if err == nil {
			break
		}
		stderr := stderrOf(err)
		// A bare clang does not know where Debian keeps the device
		// libraries (hipcc passes --hip-device-lib-path); list the
		// processors it knows, and say that is all it shows.
		if !nogpulib && strings.Contains(stderr, "cannot find ROCm device library;") {
			nogpulib = true
			tc.Detail = strings.TrimPrefix(tc.Detail+", ", ", ") + "no ROCm device libraries found: processors it knows"
			continue
		}
		bad := rejectedArchs(stderr)
		next := slices.DeleteFunc(slices.Clone(cands), func(a string) bool { return slices.Contains(bad, a) })
		if len(next) == len(cands) {
			return tc, fmt.Errorf("%s: probing supported architectures failed: %s", tc.Name, oneLine(err))
		}
		cands = next
	}
	tc.Archs = SortArchs(cands)
	return tc, nil
}

var rejectRe = lazyre.New(`(?:invalid target ID '|unsupported CUDA/HIP offload arch[^']*'|unsupported HIP gpu architecture: |cannot find ROCm device library for |unknown target CPU ')(gfx[0-9a-f]+)`)

func rejectedArchs(stderr string) []string {
	var out []string
	for _, m := range rejectRe.Get().FindAllStringSubmatch(stderr, -1) {
		out = append(out, m[1])
	}
	return out
}

// CheckToolchain reports whether the installed compiler of b builds every
// arch. The error names the arch, the compiler and its version and the
// supported set; it wraps ErrUnsupportedArch (or ErrNoCompiler).
func CheckToolchain(h Host, b Backend, archs []string) error {
	tc, err := FindToolchain(h, b)
	if err != nil {
		return err
	}
	var bad []string
	for _, a := range archs {
		if !supports(tc, b, a) {
			bad = append(bad, a)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	return fmt.Errorf("%w: %s does not build for %s; it supports %s; install a newer %s or choose another arch with %s",
		ErrUnsupportedArch, tc, strings.Join(bad, ", "), strings.Join(tc.Archs, " "), toolkitName(b), FlagName(b))
}

func supports(tc Toolchain, b Backend, arch string) bool {
	if b == ROCm {
		// Target-ID features are checked by the table; the compiler
		// question is whether it knows the processor.
		return slices.Contains(tc.Archs, processor(arch))
	}
	if slices.Contains(tc.Archs, arch) {
		return true
	}
	// nvcc --list-gpu-code names only the base architectures; the
	// arch-specific (sm_90a) and family (sm_100f) variants are accepted by
	// every nvcc that knows the base, from CUDA 12.0 and 12.9 on.
	base := strings.TrimRight(arch, "af")
	if base == arch || !slices.Contains(tc.Archs, base) {
		return false
	}
	need := [2]int{12, 0}
	if strings.HasSuffix(arch, "f") {
		need = [2]int{12, 9}
	}
	return versionAtLeast(tc.Version, need)
}

// versionAtLeast compares a "major.minor" version string with need.
func versionAtLeast(v string, need [2]int) bool {
	var major, minor int
	if _, err := fmt.Sscanf(v, "%d.%d", &major, &minor); err != nil {
		return false
	}
	return major > need[0] || (major == need[0] && minor >= need[1])
}

func toolkitName(b Backend) string {
	if b == ROCm {
		return "ROCm"
	}
	return "CUDA toolkit"
}
