package sources

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExternalIdempotent translates every .cu and .cuh file under
// $HIPGEN_BENCH_CORPUS (real code from outside, see
// bench/translate-speed.sh) with default options, --wave=wide and
// --launch=ggl, twice each, and the output again: the same input must
// give the same bytes, and translating an output must change nothing.
func TestExternalIdempotent(t *testing.T) {
	root := os.Getenv("HIPGEN_BENCH_CORPUS")
	if root == "" {
		t.Skip("HIPGEN_BENCH_CORPUS is unset: it names a directory of CUDA sources (see bench/translate-speed.sh)")
	}
	n := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".cu") && !strings.HasSuffix(p, ".cuh") {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		name := filepath.Base(p)
		for _, o := range []Options{{}, {Wave: WaveWide}, {Launch: LaunchGGL}} {
			out, _ := Translate(name, src, o)
			if out2, _ := Translate(name, src, o); !bytes.Equal(out, out2) {
				t.Errorf("%s (wave %q, launch %q): two translations differ", p, o.Wave, o.Launch)
			}
			if again, _ := Translate(name, out, o); !bytes.Equal(out, again) {
				t.Errorf("%s (wave %q, launch %q): translating the output changes it", p, o.Wave, o.Launch)
			}
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatalf("no .cu or .cuh files under %s", root)
	}
	t.Logf("%d files", n)
}
