// Package archdetect owns GPU architectures: the table of known AMD and
// NVIDIA targets, parsing of every spelling users write, detection on the
// host and the precedence between explicit settings, detection and manifest
// defaults. It reads the host only through an injected Host (file system
// root, environment, command runner), never writes files, and never imports
// builder or cmd.
package archdetect

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/hipgen/hipgen/internal/lazyre"
	"github.com/hipgen/hipgen/internal/textdist"
)

// ErrUnknownArch is wrapped by every spelling error, so callers can tell a
// bad architecture from other failures with errors.Is.
var ErrUnknownArch = errors.New("unknown GPU architecture")

var (
	amdTargetRe = lazyre.New(`^(gfx[0-9a-f]+)((?::[a-z]+[+-])*)$`)
	cudaStrict  = lazyre.New(`^sm_([0-9]+)([af]?)$`)
)

// CanonicalROCm returns the canonical spelling of an AMD target ID such as
// "gfx90a" or "gfx942:sramecc+:xnack-" (features sorted by name, as clang
// writes them). It is the strict form accepted in manifests; the error
// names the closest known target.
func CanonicalROCm(s string) (string, error) {
	return canonicalROCm(s, strings.TrimSpace(s))
}

// canonicalROCm checks t and names s, what the user wrote, in errors.
func canonicalROCm(s, t string) (string, error) {
	m := amdTargetRe.Get().FindStringSubmatch(t)
	if m == nil {
		return "", fmt.Errorf("%w %q: %s", ErrUnknownArch, s, suggestROCm(s))
	}
	in, ok := byArch(m[1])
	if !ok || in.Backend != ROCm {
		return "", fmt.Errorf("%w %q: %s", ErrUnknownArch, s, suggestROCm(s))
	}
	if m[2] == "" {
		return in.Arch, nil
	}
	feats := strings.Split(m[2][1:], ":")
	seen := map[string]bool{}
	for _, f := range feats {
		name := f[:len(f)-1]
		if !slices.Contains(in.Features, name) {
			return "", fmt.Errorf("%w %q: %s does not have the %q target feature (%s)", ErrUnknownArch, s, in.Arch, name, featureHint(in))
		}
		if seen[name] {
			return "", fmt.Errorf("%w %q: feature %q given twice", ErrUnknownArch, s, name)
		}
		seen[name] = true
	}
	slices.Sort(feats)
	return in.Arch + ":" + strings.Join(feats, ":"), nil
}

func featureHint(in Info) string {
	if len(in.Features) == 0 {
		return "it takes no features"
	}
	return "it takes " + strings.Join(in.Features, ", ")
}

// CanonicalCUDA returns the canonical spelling of an NVIDIA architecture:
// "sm_90", "sm_90a" or "sm_100f". It is the strict form accepted in
// manifests: "sm90", "9.0" and "compute_90" are rejected with the spelling
// to write instead.
func CanonicalCUDA(s string) (string, error) {
	t := strings.TrimSpace(s)
	if m := cudaStrict.Get().FindStringSubmatch(t); m != nil {
		in, ok := byArch("sm_" + m[1])
		if ok && (m[2] == "" || slices.Contains(in.Variants, m[2])) {
			return t, nil
		}
		if ok {
			return "", fmt.Errorf("%w %q: %s has no %q variant (%s)", ErrUnknownArch, s, in.Arch, m[2], variantHint(in))
		}
	}
	// A lenient spelling of a known arch gets an exact correction.
	if archs, _, err := parseCUDAToken(t); err == nil && len(archs) == 1 {
		return "", fmt.Errorf("%w %q: write %q in a manifest", ErrUnknownArch, s, archs[0])
	}
	return "", fmt.Errorf("%w %q: %s", ErrUnknownArch, s, suggestCUDA(t))
}

func variantHint(in Info) string {
	if len(in.Variants) == 0 {
		return "it has none"
	}
	var v []string
	for _, x := range in.Variants {
		v = append(v, in.Arch+x)
	}
	return "it has " + strings.Join(v, ", ")
}

func suggestROCm(s string) string {
	if in, ok := byName(ROCm, s); ok {
		return fmt.Sprintf("%s is %s", s, in.Arch)
	}
	var cands []string
	for _, in := range Known(ROCm) {
		cands = append(cands, in.Arch)
	}
	base, _, _ := strings.Cut(strings.ToLower(s), ":")
	if oldAMDRe.Get().MatchString(base) {
		return "targets older than gfx900 (GCN5) are not supported"
	}
	if c := closestArch(base, cands); c != "" {
		return fmt.Sprintf("did you mean %q?", c)
	}
	return "want a target ID such as gfx90a, gfx942 or gfx942:sramecc+:xnack-"
}

func suggestCUDA(s string) string {
	if in, ok := byName(CUDA, s); ok {
		return fmt.Sprintf("%s is %s", s, in.Arch)
	}
	var cands []string
	for _, in := range Known(CUDA) {
		cands = append(cands, in.Arch)
	}
	if m := oldCUDARe.Get().FindStringSubmatch(strings.ToLower(s)); m != nil {
		return fmt.Sprintf("sm_%s is older than sm_60 (Pascal), the oldest architecture supported", m[1])
	}
	if c := closestArch(strings.ToLower(s), cands); c != "" {
		return fmt.Sprintf("did you mean %q?", c)
	}
	return "want sm_XX such as sm_80, sm_90 or sm_90a"
}

// byName finds a processor by marketing name ("MI300X", "RX 7900 XTX"),
// ignoring case, spaces and the vendor's product-line prefix.
func byName(b Backend, s string) (Info, bool) {
	key := squash(s)
	if key == "" {
		return Info{}, false
	}
	// Exact names first, so "MI300X" never lands on an early sample.
	for _, suffix := range []bool{false, true} {
		for _, in := range Known(b) {
			for _, n := range in.Names {
				full := squash(n)
				if full == key || suffix && len(key) >= 4 && strings.HasSuffix(full, key) {
					return in, true
				}
			}
		}
	}
	return Info{}, false
}

func squash(s string) string {
	s = strings.ToLower(s)
	s = strings.Map(func(r rune) rune {
		if r == ' ' || r == '-' || r == '_' {
			return -1
		}
		return r
	}, s)
	for _, p := range []string{"instinct", "radeon", "geforce", "tesla"} {
		s = strings.TrimPrefix(s, p)
	}
	return s
}

var (
	oldAMDRe  = lazyre.New(`^gfx[678][0-9a-f]{2}$`)
	oldCUDARe = lazyre.New(`^(?:sm_?|compute_?)?([1-5][0-9])$`)
)

// closestArch is textdist.Closest with a tie-break that suits numbered
// targets: among equally distant candidates prefer the longest common
// prefix, then the nearest digit where they differ, so "gfx943" suggests
// gfx942 and "sm_95" suggests sm_90.
func closestArch(name string, cands []string) string {
	best := ""
	bestKey := [3]int{}
	for _, c := range cands {
		d, ok := textdist.Near(name, c)
		if !ok {
			continue
		}
		p := commonPrefix(name, c)
		diff := 99
		if p < len(name) && p < len(c) {
			diff = abs(hexVal(name[p]) - hexVal(c[p]))
		}
		key := [3]int{d, -p, diff}
		if best == "" || less(key, bestKey) {
			best, bestKey = c, key
		}
	}
	return best
}

func commonPrefix(a, b string) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return i
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	}
	return 50
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func less(a, b [3]int) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}
