// Package testtool holds the suite's one rule for tests that need an
// external tool (hipcc, nvcc, cmake, ...): under CI=true a missing tool is a
// failure, because CI installs every tool the suite uses; elsewhere the test
// is skipped with a message naming the tool. It is for tests only.
package testtool

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// InCI reports whether the suite runs under CI=true.
func InCI() bool { return os.Getenv("CI") == "true" }

// Find returns the tool's path. When the tool is missing it returns "" and,
// under CI=true, an error saying so; elsewhere a nil error (skip the test).
func Find(name string) (string, error) {
	p, err := exec.LookPath(name)
	if err == nil {
		return p, nil
	}
	if InCI() {
		return "", fmt.Errorf("%s is required under CI=true but is not on PATH (scripts/install-deps.sh installs it)", name)
	}
	return "", nil
}

// Require returns the tool's path, failing the test under CI=true and
// skipping it elsewhere when the tool is missing.
func Require(t testing.TB, name string) string {
	t.Helper()
	p, err := Find(name)
	if err != nil {
		t.Fatal(err)
	}
	if p == "" {
		t.Skipf("%s not found on PATH; skipping (install it or run scripts/install-deps.sh)", name)
	}
	return p
}

// Main runs a package's tests with PrivateTMPDIR and exits.
func Main(m *testing.M) {
	cleanup := PrivateTMPDIR()
	code := m.Run()
	cleanup()
	os.Exit(code)
}

// PrivateTMPDIR points TMPDIR at a new directory of the test binary's own
// and returns the function that removes it. hipcc (ROCm 5.2's clang)
// leaves empty directories in TMPDIR on every compile; this keeps them out
// of /tmp.
func PrivateTMPDIR() (cleanup func()) {
	dir, err := os.MkdirTemp("", "hipgen-test-tmp")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	old, had := os.LookupEnv("TMPDIR")
	os.Setenv("TMPDIR", dir)
	return func() {
		if had {
			os.Setenv("TMPDIR", old)
		} else {
			os.Unsetenv("TMPDIR")
		}
		os.RemoveAll(dir)
	}
}

// JsonnetHelper makes the test binary double as hipgen-jsonnet, the helper
// that evaluates manifests (package manifest runs it; serve is its main,
// jsonnetvm.Main, which this package cannot import: it leads back to
// packages whose tests use this one): called first in TestMain, it runs
// serve and exits when the binary was started under that name; otherwise
// it links the binary as hipgen-jsonnet in a new directory, points
// HIPGEN_JSONNET at the link and HIPGEN_CACHE_DIR at a cache of its own
// there, and returns the function that removes it.
func JsonnetHelper(serve func(args []string, stdin io.Reader, stdout, stderr io.Writer) int) (cleanup func()) {
	if filepath.Base(os.Args[0]) == helperName {
		os.Exit(serve(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	dir, err := os.MkdirTemp("", "hipgen-test-jsonnet")
	if err == nil {
		var exe string
		if exe, err = os.Executable(); err == nil {
			link := filepath.Join(dir, helperName)
			if err = os.Symlink(exe, link); err == nil {
				os.Setenv("HIPGEN_JSONNET", link)
				os.Setenv("HIPGEN_CACHE_DIR", filepath.Join(dir, "cache"))
			}
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	return func() { os.RemoveAll(dir) }
}

// helperName is manifest.HelperName (which this package cannot import:
// package manifest's own tests use it).
const helperName = "hipgen-jsonnet"
