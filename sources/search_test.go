package sources

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestIndexText compares indexText with bytes.Index on random texts over
// a small alphabet (so that needles occur, overlap and run off the end)
// and on real words, from every starting offset.
func TestIndexText(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	alpha := "ab_c\x00\xff"
	for trial := 0; trial < 3000; trial++ {
		src := make([]byte, r.IntN(40))
		for i := range src {
			src[i] = alpha[r.IntN(len(alpha))]
		}
		needle := make([]byte, r.IntN(5))
		for i := range needle {
			needle[i] = alpha[r.IntN(len(alpha))]
		}
		for from := 0; from <= len(src); from++ {
			want := bytes.Index(src[from:], needle)
			if want >= 0 {
				want += from
			}
			if got := indexText(src, string(needle), from); got != want {
				t.Fatalf("indexText(%q, %q, %d) = %d, want %d", src, needle, from, got, want)
			}
		}
	}
	src := []byte("cudaPointerAttributes a; __half2 h; cooperative_groups::x; half2 k; auto v")
	for _, w := range []string{"cudaPointerAttributes", "half2", "__half2", "cooperative_groups", "auto", "absent", "v"} {
		if got, want := indexText(src, w, 0), bytes.Index(src, []byte(w)); got != want {
			t.Errorf("indexText(%q) = %d, want %d", w, got, want)
		}
		if got, want := containsText(src, w), bytes.Contains(src, []byte(w)); got != want {
			t.Errorf("containsText(%q) = %v, want %v", w, got, want)
		}
	}
}
