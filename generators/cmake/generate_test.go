package cmake_test

import (
	"bytes"
	"errors"
	"flag"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hipgen/hipgen/generators"
	"github.com/hipgen/hipgen/generators/cmake"
	"github.com/hipgen/hipgen/manifest"
	"github.com/hipgen/hipgen/model"
	"github.com/rogpeppe/go-internal/txtar"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/ with the current output")

// readFrom reads project files under root, as 'hipgen generate' does.
func readFrom(root string) func(string) ([]byte, error) {
	return func(rel string) ([]byte, error) {
		return os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	}
}

// generate loads root's manifest and runs the generator on it.
func generate(t *testing.T, root string, standalone bool) (*model.Project, []generators.File) {
	t.Helper()
	p, err := manifest.Load(root)
	if err != nil {
		t.Fatalf("manifest.Load(%s): %v", root, err)
	}
	files, err := cmake.New().Generate(p, generators.Options{Standalone: standalone, ReadFile: readFrom(root)})
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	return p, files
}

// projectFiles drops the fixed module files, which are the same for every
// project and checked once by TestModuleFilesAreFixed.
func projectFiles(p *model.Project, files []generators.File) []txtar.File {
	var out []txtar.File
	for _, f := range files {
		switch path.Base(f.Path) {
		case cmake.FunctionsFile, cmake.TargetsModule, cmake.LauncherFile:
			if path.Dir(f.Path) == path.Clean(p.CMake.Dir) {
				continue
			}
		}
		out = append(out, txtar.File{Name: f.Path, Data: f.Content})
	}
	return out
}

// compareGolden checks got against the archive at golden, or rewrites it
// with -update.
func compareGolden(t *testing.T, golden string, comment string, got []txtar.File) {
	t.Helper()
	data := txtar.Format(&txtar.Archive{Comment: []byte(comment), Files: got})
	if *update {
		if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
			t.Fatal(err)
		}
		old, _ := os.ReadFile(golden)
		if !bytes.Equal(old, data) {
			if err := os.WriteFile(golden, data, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("updated %s", golden)
		}
		return
	}
	want, err := txtar.ParseFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./generators/cmake -run %s -update to create it)", err, t.Name())
	}
	wantFiles := map[string][]byte{}
	for _, f := range want.Files {
		wantFiles[f.Name] = f.Data
	}
	for _, f := range got {
		w, ok := wantFiles[f.Name]
		if !ok {
			t.Errorf("%s: generated but not in %s", f.Name, golden)
			continue
		}
		delete(wantFiles, f.Name)
		if !bytes.Equal(w, f.Data) {
			t.Errorf("%s differs from %s (run with -update to accept):\n--- want\n%s\n--- got\n%s", f.Name, golden, w, f.Data)
		}
	}
	for name := range wantFiles {
		t.Errorf("%s: in %s but no longer generated", name, golden)
	}
}

// TestExamples generates every examples/*/ project and compares the
// result with testdata/examples/<name>.txtar.
func TestExamples(t *testing.T) {
	manifests, err := filepath.Glob(filepath.Join("..", "..", "examples", "*", manifest.FileName))
	if err != nil {
		t.Fatal(err)
	}
	if len(manifests) == 0 {
		t.Fatal("no examples/*/hipgen.jsonnet found")
	}
	for _, m := range manifests {
		root := filepath.Dir(m)
		name := filepath.Base(root)
		t.Run(name, func(t *testing.T) {
			p, files := generate(t, root, true)
			compareGolden(t, filepath.Join("testdata", "examples", name+".txtar"),
				"hipgen generate --standalone cmake for examples/"+name+"\n", projectFiles(p, files))
		})
	}
}

// TestCases runs testdata/cases/*.txtar: each holds a project (files not
// under want/) and the expected output under want/.
func TestCases(t *testing.T) {
	cases, _ := filepath.Glob(filepath.Join("testdata", "cases", "*.txtar"))
	if len(cases) == 0 {
		t.Fatal("no testdata/cases/*.txtar found")
	}
	for _, c := range cases {
		t.Run(strings.TrimSuffix(filepath.Base(c), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(c)
			if err != nil {
				t.Fatal(err)
			}
			root := t.TempDir()
			var inputs []txtar.File
			for _, f := range ar.Files {
				if strings.HasPrefix(f.Name, "want/") {
					continue
				}
				inputs = append(inputs, f)
				dst := filepath.Join(root, filepath.FromSlash(f.Name))
				if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(dst, f.Data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			p, files := generate(t, root, true)
			got := inputs
			for _, f := range projectFiles(p, files) {
				got = append(got, txtar.File{Name: "want/" + f.Name, Data: f.Data})
			}
			compareGolden(t, c, string(ar.Comment), got)
		})
	}
}

// TestModuleFilesAreFixed: the module is the same bytes for every
// project, carries the marker, and holds no absolute path.
func TestModuleFilesAreFixed(t *testing.T) {
	root := filepath.Join("..", "..", "examples", "vecadd")
	_, files := generate(t, root, false)
	if len(files) != 4 {
		t.Fatalf("got %d files, want 4 (module, targets module, launcher, target file)", len(files))
	}
	for _, f := range files {
		if !bytes.HasPrefix(f.Content, []byte("# "+generators.GeneratedHeader+"\n")) {
			t.Errorf("%s does not start with the generated-file header", f.Path)
		}
		abs, _ := filepath.Abs(root)
		if bytes.Contains(f.Content, []byte(abs)) || bytes.Contains(f.Content, []byte("/work/")) {
			t.Errorf("%s contains an absolute path", f.Path)
		}
		if bytes.Contains(f.Content, []byte("AMDGPU_TARGETS")) {
			t.Errorf("%s mentions AMDGPU_TARGETS", f.Path)
		}
	}
}

// TestDeterministic: the same project generates the same bytes.
func TestDeterministic(t *testing.T) {
	root := filepath.Join("..", "..", "examples", "vecadd")
	_, a := generate(t, root, true)
	for i := 0; i < 5; i++ {
		_, b := generate(t, root, true)
		if len(a) != len(b) {
			t.Fatalf("run %d: %d files, first run %d", i, len(b), len(a))
		}
		for j := range a {
			if a[j].Path != b[j].Path || !bytes.Equal(a[j].Content, b[j].Content) {
				t.Fatalf("run %d: %s differs from the first run", i, b[j].Path)
			}
		}
	}
}

// TestStandaloneLeavesUserFile: a CMakeLists.txt without the marker is
// not regenerated; one hipgen wrote is.
func TestStandaloneLeavesUserFile(t *testing.T) {
	p := &model.Project{Name: "k", CMake: model.CMakeConfig{Dir: "cmake/hipgen"}, Translate: model.TranslateConfig{Out: "hip"}}
	for _, tc := range []struct {
		existing string
		want     bool
	}{
		{"", true},
		{"cmake_minimum_required(VERSION 3.21)\n", false},
		{"# " + generators.GeneratedHeader + "\nold\n", true},
	} {
		read := func(rel string) ([]byte, error) {
			if rel == cmake.TopLevelFile && tc.existing != "" {
				return []byte(tc.existing), nil
			}
			return nil, fs.ErrNotExist
		}
		files, err := cmake.New().Generate(p, generators.Options{Standalone: true, ReadFile: read})
		if err != nil {
			t.Fatal(err)
		}
		got := files[len(files)-1].Path == cmake.TopLevelFile
		if got != tc.want {
			t.Errorf("existing %q: wrote CMakeLists.txt = %v, want %v", tc.existing, got, tc.want)
		}
	}
}

func TestBadDir(t *testing.T) {
	for _, dir := range []string{"", ".", "..", "../x", "/abs"} {
		p := &model.Project{Name: "k", CMake: model.CMakeConfig{Dir: dir}}
		_, err := cmake.New().Generate(p, generators.Options{})
		if err == nil {
			t.Errorf("dir %q: no error", dir)
		}
		if dir == "" && !errors.Is(err, cmake.ErrNoDir) {
			t.Errorf("dir %q: %v, want ErrNoDir", dir, err)
		}
	}
}

// TestMissingSource: a source the manifest names but the tree lacks is an
// error naming the file, not a silently incomplete rule.
func TestMissingSource(t *testing.T) {
	p := &model.Project{
		Name: "k", CMake: model.CMakeConfig{Dir: "cmake/hipgen"}, Translate: model.TranslateConfig{Out: "hip"},
		Targets: []*model.Target{{Name: "k", Kind: model.KindBinary, Srcs: []string{"gone.cu"}}},
	}
	_, err := cmake.New().Generate(p, generators.Options{ReadFile: readFrom(t.TempDir())})
	if err == nil || !strings.Contains(err.Error(), "gone.cu") {
		t.Fatalf("got %v, want an error naming gone.cu", err)
	}
}
