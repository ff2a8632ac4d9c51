package builder

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// sourceMap maps generated HIP files back to the user's CUDA files, so
// compiler messages about hip/csrc/a.hip:12 point at csrc/a.cu:11. The
// translator keeps the user's line structure except for the lines it adds
// (the generated-file marker, a runtime #include) and the lines it rewrites
// in place, so lines are aligned by content with a short look-ahead; a
// rewritten line maps to the user's line at the same place.
type sourceMap struct {
	root  string
	files map[string]string // generated root-relative path -> user's path

	mu    sync.Mutex
	lines map[string][]int // generated path -> user's line for each generated line (0-based index)
	re    *regexp.Regexp
}

func newSourceMap(root string, files map[string]string) *sourceMap {
	if len(files) == 0 {
		return nil
	}
	var alts []string
	for g := range files {
		alts = append(alts, regexp.QuoteMeta(g))
	}
	// Longest first, so a path never matches a shorter prefix of itself.
	sort.Slice(alts, func(i, j int) bool {
		return len(alts[i]) > len(alts[j]) || len(alts[i]) == len(alts[j]) && alts[i] < alts[j]
	})
	re := regexp.MustCompile(`(?:\./)?(` + strings.Join(alts, "|") + `)(:(\d+)(:\d+)?|\((\d+)\))?`)
	return &sourceMap{root: root, files: files, lines: map[string][]int{}, re: re}
}

// mapDiagnostics rewrites every mention of a generated file (with its line)
// in compiler output to the user's file and line.
func mapDiagnostics(msg string, sm *sourceMap, _ string) string {
	if sm == nil || msg == "" {
		return msg
	}
	return sm.re.ReplaceAllStringFunc(msg, func(m string) string {
		sub := sm.re.FindStringSubmatch(m)
		gen, user := sub[1], sm.files[sub[1]]
		lineStr := sub[3]
		if lineStr == "" {
			lineStr = sub[5]
		}
		if lineStr == "" {
			return user
		}
		n, _ := strconv.Atoi(lineStr)
		u := sm.userLine(gen, n)
		if sub[5] != "" {
			return user + "(" + strconv.Itoa(u) + ")"
		}
		return user + ":" + strconv.Itoa(u) + sub[4]
	})
}

// userLine maps a 1-based generated line to the user's 1-based line.
func (sm *sourceMap) userLine(gen string, line int) int {
	sm.mu.Lock()
	table, ok := sm.lines[gen]
	if !ok {
		g, err1 := os.ReadFile(filepath.Join(sm.root, filepath.FromSlash(gen)))
		u, err2 := os.ReadFile(filepath.Join(sm.root, filepath.FromSlash(sm.files[gen])))
		if err1 == nil && err2 == nil {
			table = alignLines(splitLines(u), splitLines(g))
		}
		sm.lines[gen] = table
	}
	sm.mu.Unlock()
	if line < 1 || line > len(table) {
		return line
	}
	return table[line-1] + 1
}

func splitLines(b []byte) [][]byte {
	ls := bytes.Split(b, []byte("\n"))
	for i := range ls {
		ls[i] = bytes.TrimSpace(ls[i])
	}
	return ls
}

// lookAhead bounds how far alignment searches for an inserted or removed run.
const lookAhead = 8

// alignLines returns, for each generated line, the index of the user's line
// it came from.
func alignLines(user, gen [][]byte) []int {
	out := make([]int, len(gen))
	i, j := 0, 0
	for j < len(gen) {
		if i >= len(user) {
			out[j] = len(user) - 1
			j++
			continue
		}
		if bytes.Equal(user[i], gen[j]) {
			out[j] = i
			i++
			j++
			continue
		}
		// Lines added by the translator: the user's line reappears a few
		// generated lines later.
		if k := find(gen, j+1, user[i]); k >= 0 {
			for ; j < k; j++ {
				out[j] = i
			}
			continue
		}
		// Lines the translator dropped.
		if k := find(user, i+1, gen[j]); k >= 0 {
			i = k
			continue
		}
		out[j] = i // rewritten in place
		i++
		j++
	}
	return out
}

func find(lines [][]byte, from int, want []byte) int {
	if len(want) == 0 {
		return -1 // blank lines align anywhere; they are no evidence
	}
	for k := from; k < len(lines) && k < from+lookAhead; k++ {
		if bytes.Equal(lines[k], want) {
			return k
		}
	}
	return -1
}
