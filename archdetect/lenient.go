package archdetect

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/hipgen/hipgen/internal/lazyre"
)

// The lenient parsers read the values other tools put in the environment
// (PYTORCH_ROCM_ARCH, CMAKE_HIP_ARCHITECTURES, TORCH_CUDA_ARCH_LIST,
// CUDAARCHS) and hipgen's own flags. They accept every spelling those tools
// accept and return canonical names plus notes about what was dropped
// (+PTX, -virtual), so nothing is lost silently.

// Native is returned by ParseList for CMake's "native" value: the user asks
// for detection, which Resolve then runs.
const Native = "native"

// ParseList splits a list separated by ';', ',' or white space and returns
// the canonical, sorted, deduplicated architectures and notes. A list that
// names no architecture is an error: an empty setting is never accepted.
func ParseList(b Backend, value string) (archs, notes []string, err error) {
	toks := strings.FieldsFunc(value, func(r rune) bool {
		return r == ';' || r == ',' || r == ' ' || r == '\t' || r == '\n'
	})
	if len(toks) == 0 {
		return nil, nil, fmt.Errorf("%w: the list %q names no architecture", ErrUnknownArch, value)
	}
	for _, t := range toks {
		if strings.EqualFold(t, Native) {
			if len(toks) > 1 {
				return nil, nil, fmt.Errorf("%w: %q cannot be combined with other architectures", ErrUnknownArch, t)
			}
			return []string{Native}, nil, nil
		}
		var a, n []string
		if b == ROCm {
			var c string
			c, err = parseROCmToken(t)
			a = []string{c}
		} else {
			a, n, err = parseCUDAToken(t)
		}
		if err != nil {
			return nil, nil, err
		}
		archs = append(archs, a...)
		notes = append(notes, n...)
	}
	archs = SortArchs(archs)
	if err := CheckCombination(archs); err != nil {
		return nil, nil, err
	}
	return archs, notes, nil
}

// ErrArchConflict means target IDs that cannot be built in one compile.
var ErrArchConflict = errors.New("conflicting AMD target IDs")

// CheckCombination rejects AMD target IDs that clang refuses to build
// together: for one processor, every ID must name the same features
// ("gfx90a:xnack-" and "gfx90a:xnack+" go together, "gfx90a" and
// "gfx90a:xnack-" do not).
func CheckCombination(archs []string) error {
	first := map[string]string{} // processor -> first target ID seen
	for _, a := range archs {
		proc, feats, _ := strings.Cut(a, ":")
		prev, ok := first[proc]
		if !ok {
			first[proc] = a
			continue
		}
		_, prevFeats, _ := strings.Cut(prev, ":")
		if featureNames(prevFeats) != featureNames(feats) {
			return fmt.Errorf("%w: %s and %s cannot be built together: for one processor, a feature must be set in every target ID or in none", ErrArchConflict, prev, a)
		}
	}
	return nil
}

// featureNames drops the +/- signs: "sramecc+:xnack-" -> "sramecc:xnack".
func featureNames(feats string) string {
	return strings.NewReplacer("+", "", "-", "").Replace(feats)
}

// SortArchs sorts and deduplicates in plain byte order, the order the
// generated CMake (list(SORT)), Python (sorted()) and Starlark code use
// too, so every build system prints the same list.
func SortArchs(archs []string) []string {
	out := slices.Clone(archs)
	slices.Sort(out)
	return slices.Compact(out)
}

func parseROCmToken(t string) (string, error) {
	s := strings.ToLower(t)
	// Offload bundles and rocminfo spell targets as full triples.
	s = strings.TrimPrefix(s, "amdgcn-amd-amdhsa--")
	s = strings.TrimPrefix(s, "amdgcn-amd-amdhsa-")
	return canonicalROCm(t, s)
}

var (
	cudaNumRe = lazyre.New(`^(?:sm_?|compute_?)?([0-9]+)([af]?)$`)
	cudaDotRe = lazyre.New(`^([0-9]+)\.([0-9])([af]?)$`)
)

// torchNames maps the names TORCH_CUDA_ARCH_LIST accepts (from
// torch.utils.cpp_extension), limited to sm_60 and newer, to archs;
// Blackwell is hipgen's own addition with the data-centre and desktop
// parts. It is a switch, not a map literal: a package's map literals are
// built at every start of hipgen, whatever the command.
func torchNames(s string) ([]string, bool) {
	switch s {
	case "pascal":
		return []string{"sm_60", "sm_61"}, true
	case "volta":
		return []string{"sm_70"}, true
	case "turing":
		return []string{"sm_75"}, true
	case "ampere":
		return []string{"sm_80", "sm_86"}, true
	case "ada":
		return []string{"sm_89"}, true
	case "hopper":
		return []string{"sm_90"}, true
	case "blackwell":
		return []string{"sm_100", "sm_120"}, true
	}
	return nil, false
}

// parseCUDAToken reads one CUDA spelling: sm_90, sm_90a, sm90, 90, 90a,
// 9.0, 9.0a, compute_90, 8.6+PTX, 90-real, 90-virtual, Ampere.
func parseCUDAToken(t string) (archs, notes []string, err error) {
	s := strings.ToLower(strings.TrimSpace(t))
	if strings.HasSuffix(s, "+ptx") {
		s = strings.TrimSuffix(s, "+ptx")
		notes = append(notes, fmt.Sprintf("%s: +PTX dropped; hipgen builds device code (SASS) for each listed arch", t))
	}
	switch {
	case strings.HasSuffix(s, "-real"):
		s = strings.TrimSuffix(s, "-real")
	case strings.HasSuffix(s, "-virtual"):
		s = strings.TrimSuffix(s, "-virtual")
		notes = append(notes, fmt.Sprintf("%s: PTX-only request read as the real arch", t))
	}
	if s == "all" || s == "all-major" {
		return nil, nil, fmt.Errorf("%w %q: list the architectures explicitly (e.g. 80;90)", ErrUnknownArch, t)
	}
	if names, ok := torchNames(s); ok {
		return names, notes, nil
	}
	var num, variant string
	if m := cudaDotRe.Get().FindStringSubmatch(s); m != nil {
		num, variant = m[1]+m[2], m[3]
	} else if m := cudaNumRe.Get().FindStringSubmatch(s); m != nil {
		num, variant = m[1], m[2]
	} else {
		return nil, nil, fmt.Errorf("%w %q: %s", ErrUnknownArch, t, suggestCUDA(t))
	}
	arch := "sm_" + num + variant
	in, ok := byArch("sm_" + num)
	if !ok {
		return nil, nil, fmt.Errorf("%w %q: %s", ErrUnknownArch, t, suggestCUDA("sm_"+num))
	}
	if variant != "" && !slices.Contains(in.Variants, variant) {
		return nil, nil, fmt.Errorf("%w %q: %s has no %q variant (%s)", ErrUnknownArch, t, in.Arch, variant, variantHint(in))
	}
	return []string{arch}, notes, nil
}
