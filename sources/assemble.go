package sources

import (
	"bytes"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/hipgen/hipgen/diag"
	"github.com/hipgen/hipgen/sources/lex"
)

// assemble applies the edits and adds the marker, the runtime include and
// the warp helpers, writing into buf's storage when it is big enough.
func (t *translator) assemble(buf []byte) []byte {
	src := t.src
	marker := MarkerLine(t.markerPath())
	if t.oldMarker[0] == 0 {
		t.edits = append(t.edits, edit{0, t.oldMarker[1], ""})
	}
	// The runtime include moves to the top when another HIP header came
	// before it: HIP's device headers need it first.
	move := len(t.runtimeIncludes) > 0 && t.firstHIPHeader >= 0 && t.firstHIPHeader < t.runtimeIncludes[0]
	if move {
		t.dropDirective(t.runtimeIncludes[0])
	}
	helpers := ""
	if t.needHelpers && !t.helperRegion {
		helpers = warpHelpers
	}
	runtimeEnd := t.insertAt
	math := t.mathInclude()
	t.relocatableDeviceCode()
	t.handleArithmetic()
	switch {
	case move || (t.needRuntime || t.needHelpers) && len(t.runtimeIncludes) == 0:
		t.insertLines(t.insertAt, t.lineBreakAt(t.insertAt)+"#include <hip/hip_runtime.h>\n"+math+helpers)
	default:
		if len(t.runtimeIncludes) > 0 {
			runtimeEnd = t.lineEnd(int(t.tok(t.runtimeIncludes[0]).Start))
		}
		if helpers != "" || math != "" {
			t.insertLines(runtimeEnd, t.lineBreakAt(runtimeEnd)+math+helpers)
		}
	}
	if block, first := t.polyfillBlock(); block != "" {
		off := t.polyfillOffset(first, runtimeEnd)
		t.insertLines(off, t.lineBreakAt(off)+block)
	}
	// By position; at one position insertions go before a replacement.
	sort.SliceStable(t.edits, func(i, j int) bool {
		a, b := t.edits[i], t.edits[j]
		if a.start != b.start {
			return a.start < b.start
		}
		return a.start == a.end && b.start != b.end
	})
	if t.copiesSpans() {
		for i := range t.edits {
			if strings.IndexByte(t.edits[i].text, 0) >= 0 {
				t.edits[i].text = t.expandSpans(t.edits[i].text)
			}
		}
	}
	// Room for everything at once: the source, the marker, every edit's
	// text and a space per edit (comments kept from a replaced span fit in
	// the span itself).
	if t.bom {
		marker = utf8BOM + marker
	}
	size := len(src) + len(marker)
	for _, e := range t.edits {
		size += len(e.text) + 1
	}
	if cap(buf) < size {
		// Fresh storage, not bytes.Buffer's growth, which would clear
		// the whole of it first and double what is asked.
		buf = make([]byte, 0, size)
	}
	b := bytes.NewBuffer(buf[:0])
	b.WriteString(marker)
	pos, cursor := 0, 0
	for _, e := range t.edits {
		if e.start < pos { // overlapping edit: the earlier one wins
			continue
		}
		b.Write(src[pos:e.start])
		if n := b.Len(); n > 0 && t.spaceBefore(e, b.Bytes()[n-1]) {
			b.WriteByte(' ')
		}
		b.WriteString(e.text)
		if e.end > e.start {
			t.keepComments(b, e, &cursor)
		}
		pos = e.end
	}
	b.Write(src[pos:])
	return b.Bytes()
}

// copySpan returns what stands, in an edit's text, for the source from..to
// as the translation makes it: code copied from one place to another
// (an asm operand into hipgen_ptx_value's code), translated as it is
// where it was. assemble replaces it (expandSpans). The mark holds the
// range itself, so the parts of a split walk need no shared list.
func (t *translator) copySpan(from, to int) string {
	return "\x00" + strconv.Itoa(from) + "," + strconv.Itoa(to) + "\x01"
}

// copiesSpans reports whether an edit may hold a copySpan mark: only the
// PTX rewrites copy, and each notes its macro among the polyfills.
func (t *translator) copiesSpans() bool {
	_, value := t.polyfills[ptxValueKey]
	_, code := t.polyfills[ptxCodeKey]
	return value || code
}

// expandSpans returns text with each copySpan mark replaced by the
// translation of its range: the source there with the edits inside it
// (sorted, as assemble sorts them) applied. A NUL byte that starts no
// mark (one an include path brought) is kept.
func (t *translator) expandSpans(text string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(text, 0)
		if i < 0 {
			b.WriteString(text)
			return b.String()
		}
		b.WriteString(text[:i])
		text = text[i:]
		from, to, n, ok := t.spanMark(text)
		if !ok {
			b.WriteByte(0)
			text = text[1:]
			continue
		}
		t.translatedRange(&b, from, to)
		text = text[n:]
	}
}

// spanMark reads the copySpan mark at the start of text: its range and
// its length.
func (t *translator) spanMark(text string) (from, to, n int, ok bool) {
	j := strings.IndexByte(text, 1)
	if j < 0 {
		return 0, 0, 0, false
	}
	a, z, found := strings.Cut(text[1:j], ",")
	from, err1 := strconv.Atoi(a)
	to, err2 := strconv.Atoi(z)
	if !found || err1 != nil || err2 != nil || from < 0 || to < from || to > len(t.src) {
		return 0, 0, 0, false
	}
	return from, to, j + 1, true
}

// translatedRange writes the source from..to with the edits that lie
// inside it applied.
func (t *translator) translatedRange(b *strings.Builder, from, to int) {
	start := b.Len()
	pos := from
	for i := sort.Search(len(t.edits), func(i int) bool { return t.edits[i].start >= from }); i < len(t.edits) && t.edits[i].start < to; i++ {
		e := t.edits[i]
		if e.end > to || e.start < pos || strings.IndexByte(e.text, 0) >= 0 {
			continue
		}
		b.Write(t.src[pos:e.start])
		if s := b.String(); len(s) > start && t.spaceBefore(e, s[len(s)-1]) {
			b.WriteByte(' ')
		}
		b.WriteString(e.text)
		pos = e.end
	}
	b.Write(t.src[pos:to])
}

// spaceBefore reports whether the edit e, written after the byte last,
// needs a space first: a word right after a literal would read as the
// literal's suffix.
func (t *translator) spaceBefore(e edit, last byte) bool {
	return e.text != "" && startsWord(e.text[0]) && (last == '"' || last == '\'' || t.literalEndsAt(e.start))
}

// insertLines inserts whole lines at off, ahead of any insertion the pass
// made at the same offset (such as "hipLaunchKernelGGL(" at the start of a
// line).
func (t *translator) insertLines(off int, text string) {
	t.edits = slices.Insert(t.edits, t.lineInserts, edit{off, off, text})
	t.lineInserts++
}

// keepComments writes the comments inside the range an edit replaced.
// Edits come in source order, so the token cursor only moves forward.
func (t *translator) keepComments(b *bytes.Buffer, e edit, cursor *int) {
	i := *cursor
	for i < len(t.comments) && int(t.comments[i].End) <= e.start {
		i++
	}
	*cursor = i
	for ; i < len(t.comments) && int(t.comments[i].Start) < e.end; i++ {
		tk := t.comments[i]
		if int(tk.Start) < e.start || i == 0 && t.oldMarker[0] == 0 {
			continue
		}
		c := t.src[tk.Start:tk.End]
		if strings.Contains(e.text, string(c)) {
			continue
		}
		b.WriteByte(' ')
		b.Write(c)
		if c[1] == '/' {
			b.WriteByte('\n')
		}
	}
}

func (t *translator) markerPath() string {
	p := t.opts.SourcePath
	if p == "" {
		p = t.name
	}
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, p)
}

// lineBreakAt returns the newline needed before inserting whole lines at
// off: none at a line start, unless the line before is continued by a
// backslash, which would join the inserted line to it (then one: an empty
// line ends it); one in the middle of a line (before a comment that never
// ends, or a literal that a backslash ends the source with: see lineEnd),
// two right after a backslash; at the end of a file whose last line has
// no newline, one, and one more (an empty line) when that line is
// continued.
func (t *translator) lineBreakAt(off int) string {
	switch {
	case off == 0:
		return ""
	case off < len(t.src) && t.src[off-1] == '\n':
		if lex.Continued(t.src, off-1) {
			return "\n"
		}
		return ""
	case off < len(t.src) && lex.Continued(t.src, off):
		return "\n\n" // the first newline would continue the backslash's line
	case off < len(t.src):
		return "\n"
	}
	nl := ""
	if t.src[off-1] != '\n' {
		nl = "\n"
		off++ // where that newline goes
	}
	if lex.Continued(t.src, off-1) {
		nl += "\n"
	}
	return nl
}

// lineEnd returns the offset just after the newline ending the logical
// line that contains off (lines continued by a backslash included, and
// lines a block comment started on it runs over), or the end of the
// source. When such a comment never ends, whatever follows it would be
// comment too: lineEnd returns where it starts, so that lines inserted
// there (after a newline, see lineBreakAt) still count; so it does for a
// literal or line comment that a backslash ends the source with (see
// openAtEnd).
func (t *translator) lineEnd(off int) int {
	first := off
	for {
		i := bytes.IndexByte(t.src[off:], '\n')
		nl := off + i
		if i < 0 {
			nl = len(t.src) // the last line, with no newline
		}
		if c, ok := t.blockCommentOver(nl); ok {
			if end := int(c.End); end-int(c.Start) < 4 || !bytes.HasSuffix(t.src[:end], []byte("*/")) {
				return int(c.Start) // it never ends
			}
			if off = int(c.End); off >= len(t.src) {
				return len(t.src) // it ends the source
			}
			continue
		}
		if i < 0 {
			if k := t.openAtEnd(); k >= first {
				return k
			}
			return len(t.src)
		}
		if !lex.Continued(t.src, nl) {
			return nl + 1
		}
		off = nl + 1
	}
}

// openAtEnd returns where a string or character literal or a line comment
// that ends the source with a backslash starts, or -1: a newline after it
// would continue it (the lexer reads on past a backslash and a newline), so
// lines inserted at the end of the source go before it instead.
func (t *translator) openAtEnd() int {
	n := len(t.src)
	if !lex.Continued(t.src, n) {
		return -1
	}
	if k := len(t.toks) - 1; k >= 0 {
		if tk := t.toks[k]; int(tk.End) == n && (tk.Kind == lex.String || tk.Kind == lex.Char) {
			return int(tk.Start)
		}
	}
	if k := len(t.comments) - 1; k >= 0 {
		if c := t.comments[k]; int(c.End) == n && t.src[c.Start+1] == '/' {
			return int(c.Start)
		}
	}
	return -1
}

// blockCommentOver returns the /* */ comment that the byte at off is
// inside, if any.
func (t *translator) blockCommentOver(off int) (lex.Token, bool) {
	// A comment that runs to the end of the source holds that end too.
	i := sort.Search(len(t.comments), func(i int) bool { c := t.comments[i]; return int(c.End) > off || int(c.End) == len(t.src) })
	if i < len(t.comments) {
		if c := t.comments[i]; int(c.Start) < off && t.src[c.Start+1] == '*' {
			return c, true
		}
	}
	return lex.Token{}, false
}

func startsWord(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// literalEndsAt reports whether a string, character or number token
// (user-defined suffix included) ends at offset off of the source.
func (t *translator) literalEndsAt(off int) bool {
	i := sort.Search(len(t.toks), func(i int) bool { return int(t.toks[i].End) >= off })
	if i == len(t.toks) || int(t.toks[i].End) != off {
		return false
	}
	switch t.toks[i].Kind {
	case lex.String, lex.Char, lex.Number:
		return true
	}
	return false
}

// mathInclude returns the include of <math.h> that a file needs, or "".
// CUDA's runtime header brings the C library's math.h along, whose
// isfinite, isnan, isinf, signbit, isnormal and fpclassify host code
// calls unqualified; HIP's runtime header declares only device overloads
// of those in the global namespace, so such a host call finds no match
// (llm.c's dev/cuda/common.h). Device code is not affected by the include.
func (t *translator) mathInclude() string {
	if t.mathUse < 0 || t.mathIncluded || !(t.needRuntime || len(t.runtimeIncludes) > 0) {
		return ""
	}
	t.report(t.mathUse, diag.Note, "call-fix", string(t.text(t.mathUse))+": added #include <math.h>, which CUDA's runtime header includes and HIP's does not; without it a host call finds only HIP's device overloads")
	return "#include <math.h>\n"
}
