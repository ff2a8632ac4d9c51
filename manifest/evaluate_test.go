package manifest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEvaluationCache: a second evaluation of the same program reads the
// cache and runs no helper, until a file the program imported changes; a
// failed evaluation is not cached.
func TestEvaluationCache(t *testing.T) {
	t.Setenv("HIPGEN_CACHE_DIR", t.TempDir())
	// The helper, through a script that counts its runs.
	log := filepath.Join(t.TempDir(), "runs")
	counting := filepath.Join(t.TempDir(), "counting-helper")
	script := "#!/bin/sh\necho run >>'" + log + "'\nexec '" + os.Getenv("HIPGEN_JSONNET") + "' \"$@\"\n"
	if err := os.WriteFile(counting, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HIPGEN_JSONNET", counting)
	runs := func() int {
		data, _ := os.ReadFile(log)
		return strings.Count(string(data), "run\n")
	}
	dir := writeTree(t, map[string]string{
		FileName:           `{ name: (import 'name.libsonnet') }`,
		"name.libsonnet":   `'one'`,
		"unused.libsonnet": `'never imported'`,
	})
	src, _ := os.ReadFile(filepath.Join(dir, FileName))
	for i, c := range []struct {
		change, data string // a file to write first
		want         string // in the output, or in the error when it starts with "error: "
		runs         int    // helper runs so far
	}{
		{"", "", `"one"`, 1},
		{"", "", `"one"`, 1},
		{"unused.libsonnet", `'changed'`, `"one"`, 1},
		{"name.libsonnet", `'two'`, `"two"`, 2},
		{"", "", `"two"`, 2},
		{"name.libsonnet", `'three`, "error: name.libsonnet", 3},
		{"", "", "error: name.libsonnet", 4},
	} {
		if c.change != "" {
			if err := os.WriteFile(filepath.Join(dir, c.change), []byte(c.data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		out, err := evaluate(dir, FileName, src)
		if want, isErr := strings.CutPrefix(c.want, "error: "); isErr {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("step %d: error %v, want one naming %s", i, err, want)
			}
		} else if err != nil || !strings.Contains(out, c.want) {
			t.Errorf("step %d: %q, %v; want %s", i, out, err, c.want)
		}
		if got := runs(); got != c.runs {
			t.Errorf("step %d: the helper ran %d times, want %d", i, got, c.runs)
		}
	}
}

// TestMissingHelper: without hipgen-jsonnet the error says what to install.
func TestMissingHelper(t *testing.T) {
	t.Setenv("HIPGEN_CACHE_DIR", t.TempDir())
	t.Setenv("HIPGEN_JSONNET", "")
	t.Setenv("PATH", t.TempDir())
	dir := writeTree(t, map[string]string{FileName: `{ name: 'p' }`})
	_, err := Load(dir)
	if err == nil || !strings.Contains(err.Error(), FileName+": "+HelperName) || !strings.Contains(err.Error(), "go install github.com/hipgen/hipgen/cmd/...@latest") {
		t.Fatalf("error %v", err)
	}
}
