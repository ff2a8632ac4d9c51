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
	for name, fix := range callFixes() {
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

// FuzzAsmKind wants asmKind's one pass over an asm template to tell the
// language that asmKindOf, which replaces the escapes and splits the text,
// tells.
func FuzzAsmKind(f *testing.F) {
	for _, s := range []string{"mov.u32 %0, %1;", `v_add_f32 %0, %1, %2\n\ts_nop 0`, `@p bra L1;\n`, "rdtsc", "", `{\n.reg .pred p;\n}`, "dmb ish", `a\\n b`, `x\\tb\n@`, `\\`, "trap;", "mov.u32 %0,\\\n %1;", "v_nop\u00a0x"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := asmKind(b), asmKindOf(b); got != want {
			t.Fatalf("asmKind(%q) = %v, asmKindOf says %v", b, got, want)
		}
	})
}
