package manifest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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

// TestEvaluationCachePruned: storing an evaluation leaves the
// MaxCachedEvaluations entries used last, and temporary files only while
// they are young; a hit makes its entry the newest.
func TestEvaluationCachePruned(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("HIPGEN_CACHE_DIR", cache)
	dir := filepath.Join(cache, "manifests")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	// Older entries of other manifests, one a second, the oldest first.
	const old = MaxCachedEvaluations + 44
	for i := range old {
		p := filepath.Join(dir, fmt.Sprintf("old%03d", i))
		if err := os.WriteFile(p, []byte(`{"output":"{}"}`), 0o644); err != nil {
			t.Fatal(err)
		}
		at := now.Add(time.Duration(i-old) * time.Second)
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
	}
	for name, age := range map[string]time.Duration{".stale.tmp1": 2 * time.Hour, ".young.tmp2": time.Minute} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, now.Add(-age), now.Add(-age)); err != nil {
			t.Fatal(err)
		}
	}
	project := writeTree(t, map[string]string{FileName: `{ name: 'p' }`})
	src, _ := os.ReadFile(filepath.Join(project, FileName))
	if _, err := evaluate(project, FileName, src); err != nil {
		t.Fatal(err)
	}
	names := func() map[string]bool {
		list, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]bool{}
		for _, d := range list {
			m[d.Name()] = true
		}
		return m
	}
	got := names()
	var entries, fresh []string
	for n := range got {
		if !strings.HasPrefix(n, ".") {
			entries = append(entries, n)
			if !strings.HasPrefix(n, "old") {
				fresh = append(fresh, n)
			}
		}
	}
	if len(entries) != MaxCachedEvaluations || len(fresh) != 1 {
		t.Fatalf("%d entries (%d new), want %d with the new one", len(entries), len(fresh), MaxCachedEvaluations)
	}
	// The oldest went: 44 of the old ones and one more for the new entry.
	for i := range old {
		if want := i >= old-MaxCachedEvaluations+1; got[fmt.Sprintf("old%03d", i)] != want {
			t.Errorf("old%03d kept: %v, want %v", i, !want, want)
		}
	}
	if got[".stale.tmp1"] || !got[".young.tmp2"] {
		t.Errorf("temporary files: stale kept %v, young kept %v; want only the young one", got[".stale.tmp1"], got[".young.tmp2"])
	}

	// A hit refreshes the entry: made the oldest, it is read and then
	// survives the pruning of the next store.
	entry := filepath.Join(dir, fresh[0])
	long := now.Add(-1000 * time.Hour)
	if err := os.Chtimes(entry, long, long); err != nil {
		t.Fatal(err)
	}
	if out, err := evaluate(project, FileName, src); err != nil || !strings.Contains(out, `"p"`) {
		t.Fatalf("cached evaluation: %q, %v", out, err)
	}
	if st, err := os.Stat(entry); err != nil {
		t.Fatal(err)
	} else if st.ModTime().Before(now) {
		t.Fatalf("the entry read was not refreshed: its time is %v", st.ModTime())
	}
	other := writeTree(t, map[string]string{FileName: `{ name: 'q' }`})
	src2, _ := os.ReadFile(filepath.Join(other, FileName))
	if _, err := evaluate(other, FileName, src2); err != nil {
		t.Fatal(err)
	}
	if !names()[fresh[0]] {
		t.Error("the entry read last was pruned")
	}
}
