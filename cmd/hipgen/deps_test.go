package main

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/hipgen/hipgen/internal/testtool"
)

// TestNoJsonnetInHipgen: go-jsonnet, and the YAML package it imports, stay
// out of this program (hipgen-jsonnet evaluates manifests): their package
// initialization would cost every hipgen command about half a millisecond.
// So does the standard library's crypto (its FIPS 140 module: package
// initialization and a 32 MB variable whose pointer mask the runtime builds
// at start, about 0.1 ms): hipgen's digests are internal/sha256's.
func TestNoJsonnetInHipgen(t *testing.T) {
	gotool := testtool.Require(t, "go")
	out, err := exec.Command(gotool, "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for _, p := range strings.Fields(string(out)) {
		if strings.HasPrefix(p, "github.com/google/go-jsonnet") || strings.HasPrefix(p, "sigs.k8s.io/yaml") || strings.HasPrefix(p, "crypto/") {
			t.Errorf("hipgen imports %s", p)
		}
	}
}
