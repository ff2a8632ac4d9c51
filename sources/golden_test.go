package sources

import (
	"bytes"
	"crypto/sha256"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hipgen/hipgen/diag"
	"github.com/hipgen/hipgen/sources/hipmap"
	"github.com/rogpeppe/go-internal/txtar"
)

var update = flag.Bool("update", false, "rewrite the wanted output of golden cases that changed")

// A golden case is testdata/NAME.txtar: the comment holds options, one per
// line ("launch: ggl", "rocm: 6.2", "wave: wide", "local: a.h b/c.h" for
// Options.LocalIncludes, "hip-defines: USE_ROCM" for Options.HIPDefines);
// the first file is the
// CUDA input (its name is the translated path), then "want" holds the
// wanted output and "diagnostics" the wanted diagnostics.
type golden struct {
	path  string
	arch  *txtar.Archive
	opts  Options
	name  string
	input []byte
}

func loadGoldens(t *testing.T) []golden {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no golden cases found in testdata/*.txtar")
	}
	var out []golden
	for _, f := range files {
		a, err := txtar.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if len(a.Files) == 0 {
			t.Fatalf("%s: no input file", f)
		}
		g := golden{path: f, arch: a, name: a.Files[0].Name, input: a.Files[0].Data}
		for _, line := range strings.Split(string(a.Comment), "\n") {
			k, v, ok := strings.Cut(line, ":")
			if !ok {
				continue
			}
			v = strings.TrimSpace(v)
			switch strings.TrimSpace(k) {
			case "launch":
				g.opts.Launch = Launch(v)
			case "wave":
				g.opts.Wave = Wave(v)
			case "local":
				g.opts.LocalIncludes = strings.Fields(v)
			case "missing-libraries":
				g.opts.MissingLibraries = strings.Fields(v)
			case "hip-defines":
				g.opts.HIPDefines = strings.Fields(v)
			case "rocm":
				ver, err := hipmap.ParseVersion(v)
				if err != nil {
					t.Fatalf("%s: %v", f, err)
				}
				g.opts.ROCmVersion = ver
			}
		}
		out = append(out, g)
	}
	return out
}

func section(a *txtar.Archive, name string) ([]byte, bool) {
	for _, f := range a.Files {
		if f.Name == name {
			return f.Data, true
		}
	}
	return nil, false
}

func setSection(a *txtar.Archive, name string, data []byte) {
	for i, f := range a.Files {
		if f.Name == name {
			a.Files[i].Data = data
			return
		}
	}
	a.Files = append(a.Files, txtar.File{Name: name, Data: data})
}

func diagText(ds []diag.Diagnostic) []byte {
	var b bytes.Buffer
	diag.WriteText(&b, ds)
	return b.Bytes()
}

func TestGolden(t *testing.T) {
	for _, g := range loadGoldens(t) {
		t.Run(strings.TrimSuffix(filepath.Base(g.path), ".txtar"), func(t *testing.T) {
			sum := sha256.Sum256(g.input)
			out, ds := Translate(g.name, g.input, g.opts)
			if sha256.Sum256(g.input) != sum {
				t.Fatal("Translate modified its input")
			}
			gotDiags := diagText(ds)
			if *update {
				wantOut, _ := section(g.arch, "want")
				wantDiags, _ := section(g.arch, "diagnostics")
				if !bytes.Equal(wantOut, out) || !bytes.Equal(wantDiags, gotDiags) {
					setSection(g.arch, "want", out)
					setSection(g.arch, "diagnostics", gotDiags)
					if err := os.WriteFile(g.path, txtar.Format(g.arch), 0o644); err != nil {
						t.Fatal(err)
					}
					t.Logf("updated %s", g.path)
				}
			} else {
				wantOut, ok := section(g.arch, "want")
				if !ok {
					t.Fatalf("%s: no want section (run go test -update)", g.path)
				}
				if !bytes.Equal(wantOut, out) {
					t.Errorf("output differs\n--- got\n%s\n--- want\n%s", out, wantOut)
				}
				wantDiags, _ := section(g.arch, "diagnostics")
				if !bytes.Equal(wantDiags, gotDiags) {
					t.Errorf("diagnostics differ\n--- got\n%s--- want\n%s", gotDiags, wantDiags)
				}
			}
			again, _ := Translate(g.name, out, g.opts)
			if !bytes.Equal(again, out) {
				t.Errorf("not idempotent: translating the output again gives\n%s", again)
			}
		})
	}
}
