package sources

import (
	"strings"

	"github.com/hipgen/hipgen/diag"
	"github.com/hipgen/hipgen/sources/lex"
)

// launch handles k<<<grid, block[, shmem[, stream]]>>>(args) whose <<< is
// at k. With LaunchGGL it becomes hipLaunchKernelGGL(k, grid, block,
// shmem, stream, args); template kernels are parenthesised so their
// commas do not split macro arguments.
func (t *translator) launch(k int) int {
	t.needRuntime = true
	if t.opts.Launch != LaunchGGL {
		return k + 1
	}
	closeCfg := -1
	for j := k + 1; j < len(t.sig); j++ {
		if t.is(j, ">>>") {
			closeCfg = j
			break
		}
		if t.is(j, ";") || t.is(j, "<<<") {
			break
		}
	}
	if closeCfg < 0 || !t.is(closeCfg+1, "(") {
		t.report(k, diag.Warning, "launch", "kernel launch not rewritten: cannot find the closing >>> and the argument list")
		return k + 1
	}
	closeArgs := t.matching(closeCfg + 1)
	kstart := t.kernelStart(k - 1)
	if closeArgs < 0 || kstart < 0 {
		t.report(k, diag.Warning, "launch", "kernel launch not rewritten: cannot delimit the kernel name or its arguments")
		return k + 1
	}
	for j := k + 1; j < closeCfg; j++ {
		if kind := t.tok(j).Kind; kind == lex.String || kind == lex.Char {
			t.report(k, diag.Warning, "launch", "kernel launch not rewritten: a literal among the launch parameters")
			return k + 1
		}
	}
	if _, ok := t.args(k, closeCfg); !ok {
		t.report(k, diag.Warning, "launch", "kernel launch not rewritten: malformed launch parameters")
		return k + 1
	}
	cfg := t.argTexts(k, closeCfg)
	if len(cfg) < 2 || len(cfg) > 4 {
		t.report(k, diag.Warning, "launch", "kernel launch not rewritten: want 2 to 4 launch parameters")
		return k + 1
	}
	for len(cfg) < 4 {
		cfg = append(cfg, "0")
	}
	kernel := t.mappedSpan(kstart, k-1)
	if strings.ContainsAny(kernel, "<,") {
		kernel = "(" + kernel + ")"
	}
	head := "hipLaunchKernelGGL(" + kernel + ", " + strings.Join(cfg, ", ")
	if closeArgs > closeCfg+2 {
		head += ", "
	}
	// Replace "kernel<<<cfg>>>(" with the head; the arguments stay in
	// place, so identifiers inside them are still translated.
	lo, hi := int(t.tok(kstart).Start), int(t.tok(closeCfg+1).End)
	kept := t.edits[:0]
	for _, e := range t.edits {
		if e.start < lo || e.start >= hi {
			kept = append(kept, e)
		}
	}
	t.edits = append(kept, edit{lo, hi, head})
	return closeCfg + 2
}

// argTexts returns the comma-separated pieces between the brackets at open
// and close, with identifiers mapped through the table.
func (t *translator) argTexts(open, close int) []string {
	var out []string
	depth, start := 0, open+1
	flush := func(end int) { out = append(out, strings.TrimSpace(t.mappedSpan(start, end))) }
	for j := open + 1; j < close; j++ {
		switch string(t.text(j)) {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
		case ",":
			if depth == 0 {
				flush(j - 1)
				start = j + 1
			}
		}
	}
	if close > start {
		flush(close - 1)
	}
	return out
}

// kernelStart walks back from k over a possibly qualified, possibly
// templated kernel name (ns::kern<T, 4>) and returns its first token.
func (t *translator) kernelStart(k int) int {
	j := k
	if t.is(j, ">") || t.is(j, ">>") {
		depth := 0
		for ; j >= 0; j-- {
			switch string(t.text(j)) {
			case ">":
				depth++
			case ">>":
				depth += 2
			case "<":
				depth--
			case ";", "{", "}":
				return -1
			}
			if depth == 0 {
				break
			}
		}
		j--
	}
	if t.tok(j).Kind != lex.Ident {
		return -1
	}
	for t.is(j-1, "::") && t.tok(j-2).Kind == lex.Ident {
		j -= 2
	}
	if t.is(j-1, "::") {
		j--
	}
	return j
}

// mappedSpan is span with identifiers mapped through the table, for text
// that a rewrite copies instead of leaving in place.
func (t *translator) mappedSpan(first, last int) string {
	var b strings.Builder
	for j := first; j <= last; j++ {
		if j > first {
			b.Write(t.src[t.tok(j-1).End:t.tok(j).Start])
		}
		txt := string(t.text(j))
		if t.tok(j).Kind == lex.Ident {
			if e, ok := t.lookupIdent(t.text(j)); ok && e.Available(t.ver) && e.Renames() {
				txt = e.HIP
				t.count(e)
			}
		}
		b.WriteString(txt)
	}
	return b.String()
}
