package sources

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestZZExternalIdempotent(t *testing.T) {
	n := 0
	for _, root := range strings.Split(os.Getenv("ZZ_ROOTS"), ":") {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !(strings.HasSuffix(p, ".cu") || strings.HasSuffix(p, ".cuh")) {
				return nil
			}
			src, _ := os.ReadFile(p)
			for _, o := range []Options{{}, {Wave: WaveWide}, {Launch: LaunchGGL}} {
				out, _ := Translate(filepath.Base(p), src, o)
				out2, _ := Translate(filepath.Base(p), src, o)
				if !bytes.Equal(out, out2) {
					t.Errorf("%s: not deterministic", p)
				}
				again, _ := Translate(filepath.Base(p), out, o)
				if !bytes.Equal(out, again) {
					t.Errorf("%s %+v: not idempotent", p, o)
				}
			}
			n++
			return nil
		})
	}
	t.Logf("%d files", n)
}
