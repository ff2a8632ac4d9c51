package jsonnetvm

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-jsonnet"
	"github.com/hipgen/hipgen/manifest"
)

func TestImporterRefusesEscapes(t *testing.T) {
	imp := &rootImporter{root: t.TempDir(), cache: map[string]jsonnet.Contents{}}
	for _, p := range []string{"../x.libsonnet", "/etc/passwd", "a/../../x"} {
		if _, _, err := imp.Import("hipgen.jsonnet", p); err == nil {
			t.Errorf("import %q: no error", p)
		}
	}
}

// TestEvaluateListsImports: the output depends on the program and on the
// files it imported (through other imports too), which Evaluate lists.
func TestEvaluateListsImports(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "lib"), 0o755)
	os.WriteFile(filepath.Join(root, "lib", "a.libsonnet"), []byte("{ a: (import 'b.libsonnet').b }"), 0o644)
	os.WriteFile(filepath.Join(root, "lib", "b.libsonnet"), []byte("{ b: 2 }"), 0o644)
	os.WriteFile(filepath.Join(root, "names.txt"), []byte("x"), 0o644)
	out, imports, err := Evaluate(root, "hipgen.jsonnet", []byte("(import 'lib/a.libsonnet') + { n: importstr 'names.txt' }"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(strings.Fields(out), "") != `{"a":2,"n":"x"}` {
		t.Errorf("output %s", out)
	}
	want := map[string]string{
		"lib/a.libsonnet": "{ a: (import 'b.libsonnet').b }",
		"lib/b.libsonnet": "{ b: 2 }",
		"names.txt":       "x",
	}
	if len(imports) != len(want) {
		t.Errorf("imports %v, want %d", imports, len(want))
	}
	for rel, data := range want {
		if imports[rel] != manifest.ContentDigest([]byte(data)) {
			t.Errorf("import %s: digest %q, want that of %q", rel, imports[rel], data)
		}
	}
}

// TestMainReplies: the helper answers with JSON on stdout, an evaluation
// error included (with its position), and exits 2 only on bad usage.
func TestMainReplies(t *testing.T) {
	root := t.TempDir()
	for _, c := range []struct{ src, output, err string }{
		{"{ x: 1 }", "{\n   \"x\": 1\n}\n", ""},
		{"{ x: }", "", "hipgen.jsonnet:1:6: syntax error"},
		{"{ x: error 'no' }", "", "hipgen.jsonnet:1:6: no"},
	} {
		var stdout, stderr bytes.Buffer
		if code := Main([]string{root, "hipgen.jsonnet"}, strings.NewReader(c.src), &stdout, &stderr); code != 0 {
			t.Fatalf("%q: exit %d: %s", c.src, code, stderr.String())
		}
		var r manifest.HelperReply
		if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
			t.Fatalf("%q: %v: %s", c.src, err, stdout.String())
		}
		if r.Output != c.output || !strings.HasPrefix(r.Error, c.err) || (c.err == "") != (r.Error == "") {
			t.Errorf("%q: reply %+v, want output %q, error starting %q", c.src, r, c.output, c.err)
		}
	}
	var stderr bytes.Buffer
	if code := Main(nil, strings.NewReader(""), &bytes.Buffer{}, &stderr); code != 2 || !strings.Contains(stderr.String(), "usage") {
		t.Errorf("no arguments: exit %d, %q", code, stderr.String())
	}
}
