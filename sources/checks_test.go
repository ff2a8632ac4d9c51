package sources

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestChecksListed keeps Checks (the documented list) in step with the
// check names the code reports.
func TestChecksListed(t *testing.T) {
	listed := map[string]bool{}
	for _, c := range Checks {
		listed[c.Name] = true
	}
	re := regexp.MustCompile(`(?:diag\.(?:Note|Warning|Error), |check[A-Za-z]* += )"([a-z0-9-]+)"`)
	files, _ := filepath.Glob("*.go")
	found := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllSubmatch(data, -1) {
			found++
			if !listed[string(m[1])] {
				t.Errorf("%s: check %q is not in Checks", f, m[1])
			}
		}
	}
	if found < 10 {
		t.Fatalf("found only %d check names in the sources; the pattern is stale", found)
	}
}

// TestPolyfillInitials checks that polyfillInitial lets through every
// polyfilled name, and holds no letter that none starts with.
func TestPolyfillInitials(t *testing.T) {
	var want [256]bool
	for name := range polyfillList() {
		if name == dynamicSharedAligned {
			continue // a macro the dynamic shared memory rewrite uses, not a CUDA name
		}
		want[name[0]] = true
		if !polyfillInitial[name[0]] {
			t.Errorf("polyfill %s: its first letter %q is not in polyfillInitial", name, name[0])
		}
	}
	for c := range polyfillInitial {
		if polyfillInitial[c] && !want[c] {
			t.Errorf("polyfillInitial holds %q, which no polyfilled name starts with", rune(c))
		}
	}
}
