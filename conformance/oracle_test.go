package conformance

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/hipgen/hipgen/sources"
)

// TestOracleCatchesWidenedWarps is the oracle's negative control: a program
// that hardcodes 32-lane warps, translated with the strategy that widens
// every warp construct to the 64-lane wavefront, must FAIL on HIP-CPU. If it
// passed, the PASS results of TestPrograms would prove nothing about wave64.
func TestOracleCatchesWidenedWarps(t *testing.T) {
	root := hipCPURoot(t)
	prog := filepath.Join("testdata", "lane_warp_index.cu")
	src, err := os.ReadFile(prog)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := sources.Translate(filepath.Base(prog), src, sources.Options{
		Launch:     sources.LaunchGGL,
		Wave:       sources.WaveWide,
		SourcePath: filepath.ToSlash(prog),
	})
	hip := filepath.Join(t.TempDir(), "lane_warp_index.hip")
	if err := os.WriteFile(hip, out, 0o644); err != nil {
		t.Fatal(err)
	}
	poison := t.TempDir()
	if _, err := ShadowCUDAHeaders(poison, "/usr/include"); err != nil {
		t.Fatal(err)
	}
	res, err := runOnHIPCPU(t, root, hip, poison)
	if err == nil || bytes.Contains(res, []byte("PASS")) || !bytes.Contains(res, []byte("FAIL")) {
		t.Fatalf("widened translation of %s was not caught on HIP-CPU (err %v):\n%s", prog, err, tail(res, 10))
	}
}
