// Package archdetect owns GPU architectures: the table of known AMD and
// NVIDIA targets, parsing of every spelling users write, detection on the
// host and the precedence between explicit settings, detection and manifest
// defaults. It reads the host only through an injected root directory and
// command runner, and never imports builder or cmd.
package archdetect

import (
	"fmt"
	"regexp"
	"strings"
)

// Minimal spelling check; the architecture table replaces it.
var (
	amdRe  = regexp.MustCompile(`^gfx(90[0-9a-c]|94[0-2]|950|10(1[0-3]|3[0-6])|11(0[0-3]|5[0-3])|120[01])((:(sramecc|xnack)[+-])*)$`)
	cudaRe = regexp.MustCompile(`^sm_(60|61|62|70|72|75|80|86|87|89|90|100|101|103|110|120|121)(a|f)?$`)
)

// CanonicalROCm returns the canonical spelling of an AMD target ID such as
// "gfx90a:xnack-", or an error naming what is wrong.
func CanonicalROCm(s string) (string, error) {
	t := strings.TrimSpace(s)
	if !amdRe.MatchString(t) {
		return "", fmt.Errorf("unknown AMD GPU architecture %q (want a target ID such as gfx90a, gfx942 or gfx90a:xnack-)", s)
	}
	return t, nil
}

// CanonicalCUDA returns the canonical spelling of an NVIDIA architecture
// such as "sm_90", or an error naming what is wrong.
func CanonicalCUDA(s string) (string, error) {
	t := strings.TrimSpace(s)
	if !cudaRe.MatchString(t) {
		return "", fmt.Errorf("unknown NVIDIA GPU architecture %q (want sm_XX such as sm_80 or sm_90a)", s)
	}
	return t, nil
}
