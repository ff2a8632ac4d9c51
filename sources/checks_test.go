package sources

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/hipgen/hipgen/sources/hipmap"
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

// TestCallFixesNameTableEntries checks that every function a call fix
// applies to, and every function it renames a call to, is in the table.
func TestCallFixesNameTableEntries(t *testing.T) {
	tbl := hipmap.Default()
	for name, fix := range callFixes {
		for _, n := range []string{name, fix.rename} {
			if n == "" {
				continue
			}
			if _, ok := tbl.Identifier(n, hipmap.Version{}); !ok {
				t.Errorf("call fix of %s: %s is not in the table", name, n)
			}
		}
	}
}
