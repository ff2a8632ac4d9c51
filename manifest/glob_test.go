package manifest

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestGlobMatch(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"a.cu": "", "b.cuh": "", ".hidden.cu": "", "src/x.cu": "", "src/y.cpp": "",
		"src/sub/z.cu": "", "src/sub/deep/w.cu": "", "build/hipgen/gen.cu": "", "other/o.cu": "",
	})
	if err := os.Symlink("src", filepath.Join(dir, "lnk")); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ pat, want string }{
		{"*.cu", ".hidden.cu a.cu"},
		{"?.cu", "a.cu"},
		{"[ab].cu*", "a.cu b.cuh"},
		{"**/*.cu", ".hidden.cu a.cu other/o.cu src/sub/deep/w.cu src/sub/z.cu src/x.cu"}, // not below the skipped build/hipgen, nor through lnk
		{"src/**/*.cu", "src/sub/deep/w.cu src/sub/z.cu src/x.cu"},
		{"src/**", "src/sub/deep/w.cu src/sub/z.cu src/x.cu src/y.cpp"},
		{"src/*", "src/x.cu src/y.cpp"},
		{"{src,other}/*.cu", "other/o.cu src/x.cu"},
		{"src/{x,sub/{z,deep/w}}.cu", "src/sub/deep/w.cu src/sub/z.cu src/x.cu"},
		{"**/*.{cu,cuh}", ".hidden.cu a.cu b.cuh other/o.cu src/sub/deep/w.cu src/sub/z.cu src/x.cu"},
		{"s*/*/*.cu", "src/sub/z.cu"},
		{"lnk/*.cu", "lnk/x.cu"}, // a named link is followed
		{"nothing/*.cu", ""},
		{"a.cu/*", ""},
	}
	for _, c := range cases {
		got, err := globMatch(dir, c.pat, newGlobber(dir, "").skipped) // skips build/hipgen/
		if err != nil {
			t.Errorf("%s: %v", c.pat, err)
			continue
		}
		var files []string
		for _, r := range got {
			if st, err := os.Stat(filepath.Join(dir, r)); err == nil && !st.IsDir() {
				files = append(files, r)
			}
		}
		slices.Sort(files)
		if s := strings.Join(slices.Compact(files), " "); s != c.want {
			t.Errorf("%s: got %q, want %q", c.pat, s, c.want)
		}
	}
	for _, bad := range []string{"{a,b", "a}", "x/[a", "}{"} {
		if _, err := globMatch(dir, bad, newGlobber(dir, "").skipped); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

func TestExpandBraces(t *testing.T) {
	got, err := expandBraces("{a,b{c,d},}.cu")
	if err != nil {
		t.Fatal(err)
	}
	if s := strings.Join(got, " "); s != "a.cu bc.cu bd.cu .cu" {
		t.Errorf("got %q", s)
	}
}
