package textdist

import "testing"

func TestLevenshtein(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"a", "", 1}, {"kernal", "kernels", 2}, {"srcz", "srcs", 1}, {"abc", "abc", 0}, {"flaw", "lawn", 2}} {
		if got := Levenshtein(c.a, c.b); got != c.want {
			t.Errorf("Levenshtein(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestClosest(t *testing.T) {
	cands := []string{"name", "kind", "srcs", "hdrs", "deps"}
	for _, c := range []struct{ in, want string }{
		{"nmae", "name"}, {"srcz", "srcs"}, {"dep", "deps"}, {"completelydifferent", ""}, {"hdr", "hdrs"},
	} {
		if got := Closest(c.in, cands); got != c.want {
			t.Errorf("Closest(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
