package archdetect

import (
	"errors"
	"fmt"
	"strings"
)

// ErrNoArch means no source named an architecture: no flag, no environment
// variable, nothing detected and no manifest default.
var ErrNoArch = errors.New("no GPU architecture")

// Request is what Resolve chooses from.
type Request struct {
	Backend Backend
	// Flag holds the values of --rocm-arch or --cuda-arch, each a list in
	// any lenient spelling.
	Flag []string
	// Defaults are the manifest's archs for this backend (strict spelling).
	Defaults []string
	// NoDetect skips host detection, for hermetic builds whose result
	// must not depend on the GPUs of the machine they run on.
	NoDetect bool
}

// Choice is the resolved list and how it was reached.
type Choice struct {
	Backend Backend `json:"backend"`
	// Archs are canonical, sorted (byte order) and deduplicated; never empty.
	Archs []string `json:"archs"`
	// Source names the step that decided: "--rocm-arch",
	// "PYTORCH_ROCM_ARCH", "KFD sysfs", "manifest default", ...
	Source string `json:"source"`
	// Steps lists every source in precedence order, consulted or not,
	// for 'hipgen arch --explain'.
	Steps []Step `json:"steps"`
}

// Step is one source in the precedence chain.
type Step struct {
	// Source names it: "--rocm-arch", "HIPGEN_ROCM_ARCHS", "KFD sysfs",
	// "rocm_agent_enumerator", "manifest default".
	Source string `json:"source"`
	// Value is the raw setting or output, when there was one.
	Value string `json:"value,omitempty"`
	// Archs is what the source yielded, canonical.
	Archs []string `json:"archs,omitempty"`
	// Note says what happened: "not set", "not found in PATH", a failure
	// in one line, or what was dropped from the value.
	Note string `json:"note,omitempty"`
	// Used marks the step that decided.
	Used bool `json:"used,omitempty"`
}

// Line is the one-line summary every build prints, for example
// "rocm archs gfx90a,gfx942 (from PYTORCH_ROCM_ARCH)".
func (c Choice) Line() string {
	return fmt.Sprintf("%s archs %s (from %s)", c.Backend, strings.Join(c.Archs, ","), c.Source)
}

// EnvVars lists the environment variables Resolve reads for b, in
// precedence order: hipgen's own first, then the ecosystem's.
func EnvVars(b Backend) []string {
	if b == ROCm {
		return []string{"HIPGEN_ROCM_ARCHS", "PYTORCH_ROCM_ARCH", "CMAKE_HIP_ARCHITECTURES", "GPU_TARGETS", "AMDGPU_TARGETS"}
	}
	return []string{"HIPGEN_CUDA_ARCHS", "TORCH_CUDA_ARCH_LIST", "CUDAARCHS"}
}

// FlagName is the hipgen flag that sets b's architectures.
func FlagName(b Backend) string {
	if b == ROCm {
		return "--rocm-arch"
	}
	return "--cuda-arch"
}

// ManifestSource is the Source of a Choice that fell back to the manifest.
const ManifestSource = "manifest default"

// Resolve picks the architectures for one backend: (1) the flag, (2) the
// environment, (3) detection on the host, (4) the manifest's defaults. An
// explicit setting (1, 2) is never overridden by detection, and a broken
// explicit setting is an error rather than a reason to fall through. The
// result is never empty: with nothing to go on, Resolve returns an error
// wrapping ErrNoArch that says how to set one. The Steps are filled even
// on error, so callers can explain the failure.
func Resolve(h Host, r Request) (Choice, error) {
	h = h.withDefaults()
	if r.Backend != ROCm && r.Backend != CUDA {
		return Choice{}, fmt.Errorf("unknown backend %q (want rocm or cuda)", r.Backend)
	}
	c := Choice{Backend: r.Backend}
	explicit, native, err := resolveExplicit(h, r, &c)
	if err != nil || explicit {
		return c, err
	}
	if r.NoDetect {
		c.Steps = append(c.Steps, Step{Source: "host detection", Note: "skipped: detection turned off"})
		if native != "" {
			return c, fmt.Errorf("%w for %s: %s=native asks for detection, which is turned off", ErrNoArch, r.Backend, native)
		}
		return resolveDefaults(r, c)
	}
	archs, steps := Detect(h, r.Backend)
	c.Steps = append(c.Steps, steps...)
	if len(archs) > 0 {
		for i := len(c.Steps) - 1; i >= 0; i-- {
			if len(c.Steps[i].Archs) > 0 {
				c.Steps[i].Used = true
				c.Source = c.Steps[i].Source
				break
			}
		}
		c.Archs = archs
		c.Steps = append(c.Steps, Step{Source: ManifestSource, Note: "not consulted: detection found GPUs"})
		return c, nil
	}
	if native != "" {
		c.Steps = append(c.Steps, Step{Source: ManifestSource, Note: "not consulted: " + native + " asked for detection"})
		return c, fmt.Errorf("%w for %s: %s=native asks for detection, and no GPU was found; %s", ErrNoArch, r.Backend, native, howToSet(r.Backend))
	}
	return resolveDefaults(r, c)
}

// resolveExplicit applies the flag and the environment. It reports whether
// one of them decided, and the variable that said "native" if any.
func resolveExplicit(h Host, r Request, c *Choice) (decided bool, native string, err error) {
	flag := FlagName(r.Backend)
	if len(r.Flag) > 0 {
		val := strings.Join(r.Flag, ",")
		archs, notes, err := ParseList(r.Backend, val)
		if err != nil {
			c.Steps = append(c.Steps, Step{Source: flag, Value: val, Note: err.Error()})
			return false, "", fmt.Errorf("%s %s: %w", flag, val, err)
		}
		if len(archs) == 1 && archs[0] == Native {
			c.Steps = append(c.Steps, Step{Source: flag, Value: val, Note: "native: detect on this host"})
			native = flag
		} else {
			c.Steps = append(c.Steps, Step{Source: flag, Value: val, Archs: archs, Note: strings.Join(notes, "; "), Used: true})
			c.Archs, c.Source, decided = archs, flag, true
		}
	} else {
		c.Steps = append(c.Steps, Step{Source: flag, Note: "not given"})
	}
	for _, name := range EnvVars(r.Backend) {
		val := h.Getenv(name)
		if val == "" {
			c.Steps = append(c.Steps, Step{Source: name, Note: "not set"})
			continue
		}
		if decided || native != "" {
			c.Steps = append(c.Steps, Step{Source: name, Value: val, Note: "ignored: " + firstExplicit(c) + " takes precedence"})
			continue
		}
		archs, notes, err := ParseList(r.Backend, val)
		if err != nil {
			c.Steps = append(c.Steps, Step{Source: name, Value: val, Note: err.Error()})
			return false, "", fmt.Errorf("environment variable %s=%q: %w", name, val, err)
		}
		if len(archs) == 1 && archs[0] == Native {
			c.Steps = append(c.Steps, Step{Source: name, Value: val, Note: "native: detect on this host"})
			native = name
			continue
		}
		c.Steps = append(c.Steps, Step{Source: name, Value: val, Archs: archs, Note: strings.Join(notes, "; "), Used: true})
		c.Archs, c.Source, decided = archs, name, true
	}
	if decided {
		c.Steps = append(c.Steps,
			Step{Source: "host detection", Note: "not consulted: an explicit setting wins"},
			Step{Source: ManifestSource, Note: "not consulted: an explicit setting wins"})
	}
	return decided, native, nil
}

func firstExplicit(c *Choice) string {
	for _, s := range c.Steps {
		if s.Used || strings.HasPrefix(s.Note, "native") {
			return s.Source
		}
	}
	return "an earlier setting"
}

func resolveDefaults(r Request, c Choice) (Choice, error) {
	if len(r.Defaults) == 0 {
		c.Steps = append(c.Steps, Step{Source: ManifestSource, Note: "none set"})
		return c, fmt.Errorf("%w for %s: nothing set and no GPU detected; %s", ErrNoArch, r.Backend, howToSet(r.Backend))
	}
	canon := CanonicalCUDA
	if r.Backend == ROCm {
		canon = CanonicalROCm
	}
	var archs []string
	for i, d := range r.Defaults {
		a, err := canon(d)
		if err != nil {
			c.Steps = append(c.Steps, Step{Source: ManifestSource, Value: strings.Join(r.Defaults, ","), Note: err.Error()})
			return c, fmt.Errorf("manifest %s.archs[%d]: %w", r.Backend, i, err)
		}
		archs = append(archs, a)
	}
	archs = SortArchs(archs)
	if err := CheckCombination(archs); err != nil {
		c.Steps = append(c.Steps, Step{Source: ManifestSource, Value: strings.Join(r.Defaults, ","), Note: err.Error()})
		return c, fmt.Errorf("manifest %s.archs: %w", r.Backend, err)
	}
	c.Steps = append(c.Steps, Step{Source: ManifestSource, Value: strings.Join(r.Defaults, ","), Archs: archs, Used: true})
	c.Archs, c.Source = archs, ManifestSource
	return c, nil
}

// howToSet is the remedy in every ErrNoArch message.
func howToSet(b Backend) string {
	if b == ROCm {
		return "set one with --rocm-arch gfx90a, HIPGEN_ROCM_ARCHS=gfx90a (or PYTORCH_ROCM_ARCH) or rocm: { archs: ['gfx90a'] } in hipgen.jsonnet"
	}
	return "set one with --cuda-arch sm_80, HIPGEN_CUDA_ARCHS=sm_80 (or TORCH_CUDA_ARCH_LIST=8.0) or cuda: { archs: ['sm_80'] } in hipgen.jsonnet"
}
