// Package textdist finds the closest spelling among candidates, for the
// "did you mean" part of error messages. It is pure and has no state.
package textdist

// Levenshtein returns the edit distance between a and b, counting bytes.
func Levenshtein(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// Near returns the edit distance between name and candidate and whether
// it is small enough for candidate to be a plausible correction: at most a
// third of the longer word, plus one.
func Near(name, candidate string) (int, bool) {
	d := Levenshtein(name, candidate)
	return d, d <= max(len(name), len(candidate))/3+1
}

// Closest returns the candidate nearest to name, or "" when none is close
// enough to be a plausible typo (distance at most a third of the longer
// word, plus one; see Near). Ties go to the earlier candidate.
func Closest(name string, candidates []string) string {
	best, bestD := "", -1
	for _, c := range candidates {
		d, ok := Near(name, c)
		if !ok {
			continue
		}
		if bestD < 0 || d < bestD {
			best, bestD = c, d
		}
	}
	return best
}
