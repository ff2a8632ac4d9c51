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
func TestNoJsonnetInHipgen(t *testing.T) {
	gotool := testtool.Require(t, "go")
	out, err := exec.Command(gotool, "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for _, p := range strings.Fields(string(out)) {
		if strings.HasPrefix(p, "github.com/google/go-jsonnet") || strings.HasPrefix(p, "sigs.k8s.io/yaml") {
			t.Errorf("hipgen imports %s", p)
		}
	}
}
