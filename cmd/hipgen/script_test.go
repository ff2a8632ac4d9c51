package main

import (
	"fmt"
	"github.com/hipgen/hipgen/internal/testtool"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hipgen/hipgen/manifest/jsonnetvm"
	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain registers hipgen and hipgen-jsonnet (which evaluates manifests
// for it) as commands inside testscripts, so the scripts run the real CLI in
// a subprocess of the test binary; tests that call run in this process
// evaluate manifests with the test binary as hipgen-jsonnet too.
func TestMain(m *testing.M) {
	testscript.Main(withJsonnetHelper{m}, map[string]func(){
		"hipgen":         func() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
		"hipgen-jsonnet": func() { os.Exit(jsonnetvm.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// withJsonnetHelper runs the tests (only in the test process itself, not
// in the subprocesses that run a command) with testtool.JsonnetHelper.
type withJsonnetHelper struct{ m *testing.M }

func (w withJsonnetHelper) Run() int {
	cleanup := testtool.JsonnetHelper(jsonnetvm.Main)
	defer cleanup()
	return w.m.Run()
}

// TestScripts runs every testscripts/*.txtar end to end.
//
// Conditions beyond testscript's built-ins:
//
//	[have:TOOL]  TOOL is on PATH. Under CI=true a missing tool is a test
//	             failure, not a skip: CI installs every tool the suite uses.
//	[ci]         running under CI=true.
func TestScripts(t *testing.T) {
	dir := filepath.Join("..", "..", "testscripts")
	files, _ := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if len(files) == 0 {
		t.Fatalf("no testscripts found in %s", dir)
	}
	repoRoot, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 dir,
		WorkdirRoot:         t.TempDir(),
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Setup: func(e *testscript.Env) error {
			for _, k := range []string{"CI", "HIP_CPU_ROOT", "HOME_CACHE"} {
				if v := os.Getenv(k); v != "" {
					e.Setenv(k, v)
				}
			}
			// Debian's hipcc picks the NVIDIA platform when nvcc is on PATH.
			e.Setenv("HIP_PLATFORM", "amd")
			e.Setenv("REPO", repoRoot)
			e.Setenv("HIPGEN_CACHE_DIR", filepath.Join(e.WorkDir, ".hipgen-cache"))
			return nil
		},
		Condition: func(cond string) (bool, error) {
			switch {
			case cond == "ci":
				return testtool.InCI(), nil
			case strings.HasPrefix(cond, "have:"):
				p, err := testtool.Find(strings.TrimPrefix(cond, "have:"))
				return p != "", err
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
	})
}
