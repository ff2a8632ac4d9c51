package sources

import (
	"bytes"
	"testing"
)

func TestHasWGMMA(t *testing.T) {
	for _, s := range []string{"wgmma", "__wgmma_fence", "my_wgmma", "wgmm", "wwgmma", "w_gmma", "wgmmA", "xwgmmax", "www", ""} {
		want := len(s) >= 5 && bytes.Contains([]byte(s), []byte("wgmma"))
		if got := hasWGMMA([]byte(s)); got != want {
			t.Errorf("hasWGMMA(%q) = %v, want %v", s, got, want)
		}
	}
}
