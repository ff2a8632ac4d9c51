package sources

import (
	"bytes"
	"testing"
)

func TestNamesFP8(t *testing.T) {
	for _, s := range []string{"__nv_fp8_e4m3", "fp8", "FP8x", "xe4m3", "E4M3_MAX", "cuda_fp8", "e4m", "fp", "Fp8", "e4M3", "E4m3", "float4", "e5m2", "int8_t", "xfp", "mfp8q"} {
		b := []byte(s)
		want := bytes.Contains(b, []byte("fp8")) || bytes.Contains(b, []byte("e4m3")) || bytes.Contains(b, []byte("E4M3")) || bytes.Contains(b, []byte("FP8"))
		if got := namesFP8(b); got != want {
			t.Errorf("namesFP8(%q) = %v, want %v", s, got, want)
		}
	}
}
