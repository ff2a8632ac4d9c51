package rootpath

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWithin(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "out")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "src"), filepath.Join(root, "alias")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		rel  string
		want bool
	}{
		{".", true}, {"src", true}, {"src/missing/a.cu", true}, {"alias/a.cu", true},
		{"out", false}, {"out/a.cu", false}, {"out/new/dir/a.cu", false},
	} {
		_, ok, err := Within(root, filepath.Join(root, c.rel))
		if err != nil || ok != c.want {
			t.Errorf("Within(%s) = %v, %v; want %v", c.rel, ok, err, c.want)
		}
	}
}

func TestDirsAgreesWithWithin(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	for _, d := range []string{"src/a", "src/b"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(outside, filepath.Join(root, "src", "out")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "src", "a"), filepath.Join(root, "src", "alias")); err != nil {
		t.Fatal(err)
	}
	d := NewDirs(root)
	for _, rel := range []string{".", "src", "src/a", "src/b/new", "src/out", "src/out/x", "src/out/x/y", "src/alias", "src/alias/z", "missing/deep/dir"} {
		_, want, err := Within(root, filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 2; i++ { // the second answer comes from the cache
			if got := d.Inside(filepath.FromSlash(rel)); got != want {
				t.Errorf("Inside(%s) = %v, Within says %v", rel, got, want)
			}
		}
	}
}
