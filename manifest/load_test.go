package manifest

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestLoadDefaultsAndImports(t *testing.T) {
	dir := writeTree(t, map[string]string{
		FileName: `local k = import 'cfg/kinds.libsonnet';
{ name: 'p', targets: [{ name: 'l', kind: k.lib, srcs: ['**/*.cu'] }] }`,
		"cfg/kinds.libsonnet": `{ lib: 'library' }`,
		"b/x.cu":              "",
		"a.cu":                "",
		"hip/a.cu":            "generated copy, never globbed",
	})
	p, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if p.Translate.Out != DefaultTranslateOut || p.Translate.Launch != DefaultLaunch || p.CMake.Dir != DefaultCMakeDir {
		t.Errorf("defaults not filled: %+v %+v", p.Translate, p.CMake)
	}
	if got := strings.Join(p.Targets[0].Srcs, ","); got != "a.cu,b/x.cu" {
		t.Errorf("srcs = %s, want a.cu,b/x.cu", got)
	}
	if p.Root != dir || p.ManifestFile != FileName {
		t.Errorf("root %q file %q", p.Root, p.ManifestFile)
	}
}

func TestLoadErrorsCarryPositions(t *testing.T) {
	cases := []struct {
		src       string
		wantField string
		wantLine  int
	}{
		{`{ name: 'p', targets: [{ name: 'l', kind: 'library', srcs: ['a.cu'], deps: ['x'] }] }`, "targets[0].deps[0]", 0},
		{"{\n name: 'p'\n targets: [] }", "", 3},
		{"{ name: std.nosuch('x'), targets: [] }", "", 1},
	}
	for _, c := range cases {
		dir := writeTree(t, map[string]string{FileName: c.src, "a.cu": ""})
		_, err := Load(dir)
		if !errors.Is(err, ErrInvalid) {
			t.Fatalf("%s: err = %v, want ErrInvalid", c.src, err)
		}
		var list ErrorList
		if !errors.As(err, &list) || len(list) == 0 {
			t.Fatalf("%s: not an ErrorList: %v", c.src, err)
		}
		e := list[0]
		if e.Field != c.wantField || e.Line != c.wantLine {
			t.Errorf("%s: got field %q line %d, want field %q line %d (%v)", c.src, e.Field, e.Line, c.wantField, c.wantLine, e)
		}
		if e.File == "" {
			t.Errorf("%s: error names no file: %v", c.src, e)
		}
	}
}

func TestLoadMissingManifest(t *testing.T) {
	_, err := Load(t.TempDir())
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("err = %v, want ErrNotFound", err)
	}
}

func TestLoadReportsEveryError(t *testing.T) {
	dir := writeTree(t, map[string]string{FileName: `{
  name: 'p', colour: 1,
  rocm: { archs: ['gfx9999'] },
  targets: [
    { name: 'a', kind: 'library', srcs: ['none/*.cu'] },
    { name: 'a', kind: 'binary', srcs: ['../x.cu'], deps: ['b'] },
  ],
}`})
	_, err := Load(dir)
	var list ErrorList
	if !errors.As(err, &list) {
		t.Fatal(err)
	}
	want := []string{"colour", "rocm.archs[0]", "targets[0].srcs[0]", "targets[1].srcs[0]", "targets[1].name", "targets[1].deps[0]"}
	var got []string
	for _, e := range list {
		got = append(got, e.Field)
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("fields = %v, want %v\n%v", got, want, err)
	}
}
