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
