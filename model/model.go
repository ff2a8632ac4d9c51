// Package model owns the typed project that every other part of hipgen works
// from: the manifest after evaluation, validation and glob expansion. A
// Project holds only slash-separated paths relative to the project root, so
// it prints the same on every machine. The model does no I/O.
package model

import (
	"maps"
	"slices"
	"strings"
)

// Kind is what a target builds.
type Kind string

// The target kinds a manifest may name.
const (
	KindLibrary         Kind = "library"
	KindBinary          Kind = "binary"
	KindTest            Kind = "test"
	KindPythonExtension Kind = "python_extension"
	KindTorchExtension  Kind = "torch_extension"
)

// Kinds lists every valid Kind in documentation order.
var Kinds = []Kind{KindLibrary, KindBinary, KindTest, KindPythonExtension, KindTorchExtension}

// Valid reports whether k is one of Kinds.
func (k Kind) Valid() bool {
	for _, v := range Kinds {
		if k == v {
			return true
		}
	}
	return false
}

// Project is a validated manifest. All paths are slash-separated and relative
// to the project root; Root is the only absolute path and is never printed.
type Project struct {
	Name string `json:"name"`
	// Root is the absolute project directory, filled by the loader.
	Root string `json:"-"`
	// ManifestFile is the manifest's path relative to Root (normally hipgen.jsonnet).
	ManifestFile string `json:"-"`

	CUDA      Backend         `json:"cuda"`
	ROCm      Backend         `json:"rocm"`
	Translate TranslateConfig `json:"translate"`
	CMake     CMakeConfig     `json:"cmake"`
	Targets   []*Target       `json:"targets"`
}

// Backend holds one GPU backend's settings.
type Backend struct {
	// Archs are the default architectures used when nothing is set or
	// detected, in canonical spelling (sm_90, gfx90a:xnack-).
	Archs []string `json:"archs"`
	// Defines are preprocessor definitions (NAME or NAME=value) that every
	// compile for this backend gets, before the targets' own: the switch
	// that selects a project's own HIP code (USE_AMD_ROCM), which the
	// translator then knows HIP builds take.
	Defines []string `json:"defines"`
}

// MergeDefines returns definitions (NAME or NAME=value) sorted by name,
// one per name: a later definition of a name replaces an earlier one, as
// a later -D does on a compiler's command line.
func MergeDefines(defines []string) []string {
	byName := map[string]string{}
	for _, d := range defines {
		name, _, _ := strings.Cut(d, "=")
		byName[name] = d
	}
	out := make([]string, 0, len(byName))
	for _, name := range slices.Sorted(maps.Keys(byName)) {
		out = append(out, byName[name])
	}
	return out
}

// TranslateConfig controls the generated HIP tree.
type TranslateConfig struct {
	// Out is the directory, relative to the root, that mirrors the CUDA
	// source tree with translated files.
	Out string `json:"out"`
	// Launch is "chevron" (keep <<<>>>) or "ggl" (hipLaunchKernelGGL).
	Launch string `json:"launch"`
	// Wave is the wavefront strategy: "auto" (32-lane logical warps where
	// the code assumes 32) or "wide" (widen every warp construct to the
	// wavefront, for code that is warp-size generic throughout).
	Wave string `json:"wave"`
}

// CMakeConfig controls the generated CMake files.
type CMakeConfig struct {
	// Dir is where the CMake module and target file are written.
	Dir string `json:"dir"`
}

// Target is one buildable unit.
type Target struct {
	Name string `json:"name"`
	Kind Kind   `json:"kind"`
	// Srcs and Hdrs are the expanded, sorted, de-duplicated file lists.
	Srcs      []string `json:"srcs"`
	Hdrs      []string `json:"hdrs"`
	Includes  []string `json:"includes"`
	Defines   []string `json:"defines"`
	Deps      []string `json:"deps"`
	CUDAFlags []string `json:"cuda_flags"`
	HIPFlags  []string `json:"hip_flags"`
	CXXFlags  []string `json:"cxx_flags"`
	Link      []string `json:"link"`
}

// Target returns the target named name, or nil.
func (p *Project) Target(name string) *Target {
	for _, t := range p.Targets {
		if t.Name == name {
			return t
		}
	}
	return nil
}

// DepsClosure returns t's transitive dependencies in a stable order:
// depth-first, each dependency before the targets that need it. The manifest
// loader guarantees the graph is acyclic.
func (p *Project) DepsClosure(t *Target) []*Target {
	var out []*Target
	seen := map[string]bool{}
	var visit func(*Target)
	visit = func(x *Target) {
		for _, d := range x.Deps {
			if seen[d] {
				continue
			}
			seen[d] = true
			if dt := p.Target(d); dt != nil {
				visit(dt)
				out = append(out, dt)
			}
		}
	}
	visit(t)
	return out
}

// AllSources returns every source and header of every target, sorted and
// de-duplicated.
func (p *Project) AllSources() []string {
	seen := map[string]bool{}
	var out []string
	for _, t := range p.Targets {
		for _, lst := range [][]string{t.Srcs, t.Hdrs} {
			for _, f := range lst {
				if !seen[f] {
					seen[f] = true
					out = append(out, f)
				}
			}
		}
	}
	slices.Sort(out)
	return out
}
