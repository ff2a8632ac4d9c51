// Package lex splits C, C++ and CUDA source text into tokens for the
// translator: comments, string, character and raw-string literals, numbers
// with digit separators, identifiers, punctuators (including the <<< and >>>
// launch brackets), line continuations and preprocessor lines. It keeps every
// byte: concatenating the tokens gives back the input exactly, so the
// translator can copy what it does not rewrite. It does no I/O and never
// fails; malformed input (an unterminated comment or literal) ends the token
// at the end of the line or file.
package lex

import (
	"bytes"
	"strings"
	"sync"

	"github.com/hipgen/hipgen/internal/assist"
)

// Kind classifies a token.
type Kind uint8

// Token kinds.
const (
	Space      Kind = iota // blanks, tabs, form feeds and backslash-newline continuations
	Newline                // a newline that ends a logical line
	Comment                // // or /* */ comment
	Ident                  // identifier or keyword
	Number                 // preprocessing number, digit separators included
	String                 // string literal, any prefix, raw strings included
	Char                   // character literal
	HeaderName             // <path> in an #include directive
	Punct                  // punctuator
	Other                  // any other byte
)

// Token is one lexeme: src[Start:End].
type Token struct {
	Start, End int32
	Kind       Kind
	// Directive is set on every token of a preprocessor line, from the '#'
	// to the token before the ending newline.
	Directive bool
	// LineStart is set on the first token of a logical line other than
	// space, newline or comment (a '#' there starts a directive).
	LineStart bool
	// Known is set on an identifier whose NameHash bit is set in the
	// names given to Scan: a name the caller may have a rule for.
	Known bool
}

// NameHash is a cheap 16-bit hash of an identifier (its length and three
// of its bytes), the index of its bit in a Names set.
func NameHash[T string | []byte](b T) uint32 {
	n := len(b)
	if n == 0 {
		return 0
	}
	h := uint32(n)*2654435761 ^ uint32(b[0])<<8 ^ uint32(b[n-1])<<16 ^ uint32(b[n/2])*40503
	return (h ^ h>>15) & (1<<16 - 1)
}

// Names is a set of identifiers as a bit set over NameHash: it may hold
// names that were never added (whose hash collides with one that was),
// never misses one that was.
type Names [1 << 16 / 64]uint64

// Add adds the identifier s.
func (n *Names) Add(s string) {
	h := NameHash(s)
	n[h/64] |= 1 << (h % 64)
}

// MayContain reports whether the identifier b may have been added.
func (n *Names) MayContain(b []byte) bool { return n.has(NameHash(b)) }

// has reports whether an identifier of hash h may have been added.
func (n *Names) has(h uint32) bool { return n[h/64]&(1<<(h%64)) != 0 }

// Idents is a smaller set of the same kind, over the low 14 bits of
// NameHash: every identifier of one source (Code.Idents), where a name
// it does not contain occurs nowhere in the code. At 2 KB it is a
// quarter of a Names, for the same reason Scan's buffers are reused:
// fresh memory costs a page fault.
type Idents [1 << 14 / 64]uint64

// add adds the identifier of hash h.
func (n *Idents) add(h uint32) { n[h/64%uint32(len(n))] |= 1 << (h % 64) }

// MayContain reports whether the identifier s may have been added.
func (n *Idents) MayContain(s string) bool {
	h := NameHash(s)
	return n[h/64%uint32(len(n))]&(1<<(h%64)) != 0
}

// union adds the identifiers of o to n.
func (n *Idents) union(o *Idents) {
	for i := range n {
		n[i] |= o[i]
	}
}

// emptyIdents returns n cleared, or a new empty set where n is nil.
func emptyIdents(n *Idents) *Idents {
	if n == nil {
		return new(Idents)
	}
	clear(n[:])
	return n
}

// identsPool holds the sets of ScanParallel's chunks after the first.
var identsPool = sync.Pool{New: func() any { return new(Idents) }}

// Mark sets Known on the identifiers among toks, tokens of src, that names
// may contain, and clears it on the others (for tokens lexed with other
// names, or none).
func Mark(src []byte, toks []Token, names *Names) {
	for j := range toks {
		tk := &toks[j]
		tk.Known = tk.Kind == Ident && names != nil && names.MayContain(src[tk.Start:tk.End])
	}
}

// FindScopes appends to buf what Code.Scopes holds for toks, code tokens
// of src, by looking at every token: for tokens Scan did not just make
// (some left out, so that the indexes moved).
func FindScopes(src []byte, toks []Token, buf []int32) []int32 {
	for k, tk := range toks {
		text := src[tk.Start:tk.End]
		switch {
		case tk.Kind == Ident && (string(text) == "namespace" || string(text) == "using"):
			buf = append(buf, int32(k))
		case string(text) == "#" && tk.LineStart && tk.Directive && k+1 < len(toks) && toks[k+1].Kind == Ident && toks[k+1].Directive:
			switch string(src[toks[k+1].Start:toks[k+1].End]) {
			case "if", "ifdef", "ifndef", "elif", "else", "endif", "define":
				buf = append(buf, int32(k))
			}
		}
	}
	return buf
}

// Tokenize splits src into tokens, appending to buf (which may be nil) to
// save allocations across calls.
func Tokenize(src []byte, buf []Token) []Token {
	l := lexer{src: src, toks: buf[:cap(buf)], lineStart: true, limit: len(src)}
	l.run()
	return l.toks[:l.n]
}

// Code is src split for a translator: its code tokens, without space,
// newline and comment tokens (the gaps between code tokens hold those,
// and LineStart marks where lines begin), its comments apart, and the
// indexes into Tokens of the tokens naming the header of an #include,
// #include_next or #import directive (a HeaderName or a String token).
type Code struct {
	Tokens   []Token
	Comments []Token
	Includes []int32
	// Scopes are the indexes into Tokens, in order, of what opens or
	// closes a scope other than a brace does, or defines a macro: the
	// '#' of each #if, #ifdef, #ifndef, #elif, #else, #endif and #define,
	// and each namespace and using keyword.
	Scopes []int32
	// Idents holds every identifier of the source (so a name it may not
	// contain occurs nowhere in the code, outside comments and literals).
	Idents *Idents
	Brackets
}

// Brackets pairs the brackets among a list of code tokens: each (, [ and {
// with the bracket of its kind that closes it (other kinds are not
// counted, so one stray ] does not unbalance parentheses). A closing
// bracket with nothing open of its kind is ignored. A bracket on a
// preprocessor line pairs only with one on the same line, so that
// neither "#if f(" nor "#define BEGIN {" pairs with the code after it;
// a { there counts in Braces, inside the innermost { open on its line
// or else in the code.
//
// Brackets are paired as the first branch of each #if, #ifdef or #ifndef
// leaves them, as editors and indexers do: code such as
//
//	#if A
//	    if (x) { f();
//	#else
//	    if (y) { g();
//	#endif
//	    }
//
// opens one brace in each branch and closes one after. Each later branch
// (#elif, #else) starts from the brackets open at the #if; what it leaves
// open closes at the directive that ends it, and a bracket it closes that
// was open before it began keeps the closer the first branch or the code
// after the #endif gives.
type Brackets struct {
	// Close holds, at the index of each opening bracket, the index of
	// the token closing it, or -1 when none does. The entries of other
	// tokens are unspecified.
	Close []int32
	// Braces are the indexes of the { tokens in order; BraceUp holds,
	// for each, the index in Braces of the innermost { around it, or
	// -1; and BraceAfter the index of the ( whose list the ) right
	// before the brace closes, or -1 (a function body follows its
	// parameter list so).
	Braces, BraceUp, BraceAfter []int32
}

// Match pairs the brackets of toks, code tokens of src, reusing the
// storage of buf.
func Match(src []byte, toks []Token, buf Brackets) Brackets {
	var m matcher
	m.reset(buf, len(toks))
	m.feed(src, toks, 0)
	return m.done()
}

// feed pairs the brackets of toks, which are the tokens from index base on
// of the list being matched: Match is feed of all of them, and a caller
// may feed a list piece by piece, in order.
func (m *matcher) feed(src []byte, toks []Token, base int) {
	hash := m.hash // the '#' starting the directive line, before its first word
	for i, tk := range toks {
		j := base + i
		switch {
		case !tk.Directive:
			hash = -1
		case tk.LineStart && tk.Kind == Punct && src[tk.Start] == '#':
			hash = j
			m.newLine()
			continue
		case hash >= 0:
			if tk.Kind == Ident && j == hash+1 {
				m.directive(src[tk.Start:tk.End], int32(hash))
			}
			hash = -1
		}
		if tk.Kind == Punct && tk.End-tk.Start == 1 {
			m.see(src[tk.Start], int32(j), tk.Directive)
		}
	}
	m.hash = hash
}

// matcher pairs brackets as their tokens are seen, for Match and for the
// lexer, which does it while it emits them.
type matcher struct {
	Brackets
	stacks    [3][]int32 // open (, [, { by token index
	braceOpen []int32    // open { by index in Braces
	// line and lineBraces are stacks and braceOpen for the brackets of
	// the preprocessor line being seen: they pair only with each other,
	// and newLine empties them.
	line       [3][]int32
	lineBraces []int32
	// lastClose and lastOpen are the token index of the last ) that
	// closed a list and of its (.
	lastClose, lastOpen int32
	// conds holds a frame for each #if open around the token being seen,
	// innermost last; saved holds the stacks their frames saved, and
	// keep is the from of the innermost frame in a later branch, or -1:
	// a bracket opened before it is not closed from that branch.
	conds []condFrame
	saved []int32
	keep  int32
	// hash is, between two pieces fed, the index of a '#' whose first
	// word is still to come (see feed), or -1.
	hash int
}

// condFrame is an #if being paired: where its current branch began
// (the '#' of its directive), and where in saved the stacks open at the
// #if lie and, once a later branch began, those the first branch left.
type condFrame struct {
	from        int32
	start       int // offset in saved of the stacks at the #if
	first       int // of those the first branch left, or -1
	laterBranch bool
}

func (m *matcher) reset(buf Brackets, n int) {
	m.Brackets = Brackets{Close: buf.Close[:cap(buf.Close)], Braces: buf.Braces[:0], BraceUp: buf.BraceUp[:0], BraceAfter: buf.BraceAfter[:0]}
	if len(m.Close) < n {
		m.Close = make([]int32, n)
	}
	m.lastClose, m.hash = -2, -1
	m.conds, m.saved, m.keep = m.conds[:0], m.saved[:0], -1
}

// directive takes the first word w of the directive whose '#' is the j-th
// token, for the #if nesting (see Brackets).
func (m *matcher) directive(w []byte, j int32) {
	switch string(w) {
	case "if", "ifdef", "ifndef":
		m.conds = append(m.conds, condFrame{from: j, start: m.save(), first: -1})
	case "elif", "else", "elifdef", "elifndef":
		if len(m.conds) == 0 {
			return
		}
		f := &m.conds[len(m.conds)-1]
		if f.laterBranch {
			m.endBranch(f, j)
		} else {
			f.first, f.laterBranch = m.save(), true
		}
		m.restore(f.start)
		f.from = j
	case "endif":
		if len(m.conds) == 0 {
			return
		}
		f := m.conds[len(m.conds)-1]
		m.conds = m.conds[:len(m.conds)-1]
		if f.laterBranch {
			m.endBranch(&f, j)
			m.restore(f.first)
		}
		m.saved = m.saved[:f.start]
	default:
		return
	}
	m.keep = -1
	for i := len(m.conds) - 1; i >= 0; i-- {
		if m.conds[i].laterBranch {
			m.keep = m.conds[i].from
			break
		}
	}
}

// save appends the open brackets to saved, each stack after its length,
// and returns where they start.
func (m *matcher) save() int {
	at := len(m.saved)
	for _, st := range [...][]int32{m.stacks[0], m.stacks[1], m.stacks[2], m.braceOpen} {
		m.saved = append(m.saved, int32(len(st)))
		m.saved = append(m.saved, st...)
	}
	return at
}

// restore makes the open brackets those save stored at.
func (m *matcher) restore(at int) {
	for _, st := range [...]*[]int32{&m.stacks[0], &m.stacks[1], &m.stacks[2], &m.braceOpen} {
		n := int(m.saved[at])
		*st = append((*st)[:0], m.saved[at+1:at+1+n]...)
		at += 1 + n
	}
}

// endBranch closes at j, the directive ending a later branch of f, the
// brackets that branch opened and left open.
func (m *matcher) endBranch(f *condFrame, j int32) {
	for _, st := range m.stacks {
		for i := len(st) - 1; i >= 0 && st[i] > f.from; i-- {
			m.Close[st[i]] = j
		}
	}
}

// newLine begins a preprocessor line: the brackets of the one before,
// left open, stay so.
func (m *matcher) newLine() {
	for k := range m.line {
		m.line[k] = m.line[k][:0]
	}
	m.lineBraces = m.lineBraces[:0]
}

// see takes the one-byte punctuator c at token index j, on a
// preprocessor line if dir.
func (m *matcher) see(c byte, j int32, dir bool) {
	stacks, braceOpen := &m.stacks, &m.braceOpen
	if dir {
		stacks, braceOpen = &m.line, &m.lineBraces
	}
	var kind int
	switch c {
	case '(':
		m.Close[j] = -1
		stacks[0] = append(stacks[0], j)
		return
	case '[':
		m.Close[j] = -1
		stacks[1] = append(stacks[1], j)
		return
	case '{':
		m.Close[j] = -1
		stacks[2] = append(stacks[2], j)
		up, after := int32(-1), int32(-1)
		if len(*braceOpen) > 0 {
			up = (*braceOpen)[len(*braceOpen)-1]
		} else if len(m.braceOpen) > 0 {
			up = m.braceOpen[len(m.braceOpen)-1]
		}
		if m.lastClose == j-1 {
			after = m.lastOpen
		}
		*braceOpen = append(*braceOpen, int32(len(m.Braces)))
		m.Braces = append(m.Braces, j)
		m.BraceUp = append(m.BraceUp, up)
		m.BraceAfter = append(m.BraceAfter, after)
		return
	case ')':
		kind = 0
	case ']':
		kind = 1
	case '}':
		kind = 2
	default:
		return
	}
	st := &stacks[kind]
	if len(*st) == 0 {
		return
	}
	o := (*st)[len(*st)-1]
	*st = (*st)[:len(*st)-1]
	if o > m.keep {
		m.Close[o] = j
	}
	switch kind {
	case 0:
		m.lastClose, m.lastOpen = j, o
	case 2:
		*braceOpen = (*braceOpen)[:len(*braceOpen)-1]
	}
}

// grow makes the Close entries as many as the tokens room.
func (m *matcher) grow(n int) {
	if len(m.Close) < n {
		m.Close = append(m.Close, make([]int32, n-len(m.Close))...)
	}
}

func (m *matcher) done() Brackets { return m.Brackets }

// Scan splits src into Code, appending to the slices of buf (whose
// contents are discarded) to save allocations across calls. Identifiers
// that names may contain are marked Known (names may be nil).
func Scan(src []byte, buf Code, names *Names) Code {
	l := lexer{src: src, toks: buf.Tokens[:cap(buf.Tokens)], comments: buf.Comments[:0], includes: buf.Includes[:0], scopes: buf.Scopes[:0], lineStart: true, split: true, match: true, limit: len(src), names: names, idents: emptyIdents(buf.Idents)}
	l.m.reset(buf.Brackets, len(l.toks))
	l.run()
	return Code{Tokens: l.toks[:l.n], Comments: l.comments, Includes: l.includes, Scopes: l.scopes, Idents: l.idents, Brackets: l.m.done()}
}

// ScanParallel is Scan on up to parts goroutines, for a long src: the
// text is cut at line starts into chunks of about equal size, which are
// lexed at once, each as if a line started there, and joined; where a
// token turns out to run across a cut (a block comment or raw string over
// several lines), the chunk before it is lexed on over the next one
// instead. The brackets are then paired in one pass. The result is Scan's.
func ScanParallel(src []byte, buf Code, names *Names, parts int) Code {
	cuts := []int{0}
	for p := 1; p < parts; p++ {
		at := max(p*len(src)/parts, cuts[len(cuts)-1])
		for {
			j := bytes.IndexByte(src[at:], '\n')
			if j < 0 {
				at = len(src)
				break
			}
			at += j + 1
			// A backslash before the newline continues the line.
			if k := at - 2; k < 0 || src[k] != '\\' && !(src[k] == '\r' && k > 0 && src[k-1] == '\\') {
				break
			}
		}
		if at >= len(src) {
			break
		}
		cuts = append(cuts, at)
	}
	if len(cuts) == 1 {
		return Scan(src, buf, names)
	}
	cuts = append(cuts, len(src))
	// Chunk k lexes into region k of one token buffer (a third as many
	// tokens as it has bytes, more than code has): a fresh buffer's
	// pages are then first touched on all the chunks' cores at once,
	// and so are those of the closers' table.
	m := len(cuts) - 1
	start := make([]int, m+1)
	for k := 0; k < m; k++ {
		start[k+1] = start[k] + (cuts[k+1]-cuts[k])/3 + 64
	}
	all := buf.Tokens[:cap(buf.Tokens)]
	if len(all) < start[m] {
		all = make([]Token, start[m])
	}
	brackets := buf.Brackets
	if cap(brackets.Close) < start[m] {
		brackets.Close = make([]int32, start[m])
	}
	closers := brackets.Close[:start[m]]
	ls := make([]lexer, m)
	lexed := make([]chan struct{}, m) // closed when chunk k is lexed
	var g assist.Group                // a chunk goes to a free worker, if one asks first
	for k := range ls {
		l := &ls[k]
		*l = lexer{src: src, lineStart: true, split: true, pos: cuts[k], limit: cuts[k+1], names: names,
			toks: all[start[k]:start[k+1]:start[k+1]]}
		if k == 0 {
			l.comments, l.includes, l.scopes, l.idents = buf.Comments[:0], buf.Includes[:0], buf.Scopes[:0], emptyIdents(buf.Idents)
			continue
		}
		l.idents = emptyIdents(identsPool.Get().(*Idents))
		lexed[k] = make(chan struct{})
		g.Go(func() {
			l.run()
			touch(closers[start[k]:start[k+1]])
			close(lexed[k])
		})
	}
	ls[0].run()
	touch(closers[:start[1]])
	// Join, closing up the regions, and pair the brackets, each chunk as
	// soon as it is lexed (while later ones still are). A chunk counts
	// when the one before it stopped right at its cut, on a line start,
	// as it assumed; otherwise (a token runs across the cut) the file is
	// lexed again in one piece. A chunk that outgrew its region lexed
	// into a buffer of its own; if the tokens joined so far would then
	// run into a region not yet moved (one a later chunk may still be
	// lexing into), they are joined in a new buffer.
	var mt matcher
	mt.reset(brackets, start[m])
	dst, n, inAll := all, 0, true
	for k := range ls {
		l := &ls[k]
		if k > 0 {
			<-lexed[k]
			if ls[k-1].pos != cuts[k] || ls[k-1].launchOpen {
				g.Wait()
				for _, l := range ls[1:] {
					identsPool.Put(l.idents)
				}
				buf.Tokens, buf.Idents = all, ls[0].idents
				return Scan(src, buf, names)
			}
		}
		if inAll && k+1 < m && n+l.n > start[k+1] || n+l.n > cap(dst) {
			// The brackets are then paired past the regions of chunks
			// that may still be touching their part of the closers'
			// table: those finish first.
			g.Wait()
			grown := make([]Token, n, max(n+l.n, len(src)/3+64))
			copy(grown, dst[:n])
			dst, inAll = grown, false
		}
		dst = dst[:max(len(dst), n+l.n)]
		copy(dst[n:], l.toks[:l.n])
		base := int32(n)
		if k > 0 {
			ls[0].comments = append(ls[0].comments, l.comments...)
			for _, i := range l.includes {
				ls[0].includes = append(ls[0].includes, base+i)
			}
			for _, i := range l.scopes {
				ls[0].scopes = append(ls[0].scopes, base+i)
			}
		}
		mt.grow(n + l.n)
		mt.feed(src, dst[n:n+l.n], n)
		n += l.n
	}
	g.Wait() // over: every chunk's lexed channel was closed
	for k := 1; k < m; k++ {
		ls[0].idents.union(ls[k].idents)
		identsPool.Put(ls[k].idents)
	}
	return Code{Tokens: dst[:n], Comments: ls[0].comments, Includes: ls[0].includes, Scopes: ls[0].scopes, Idents: ls[0].idents, Brackets: mt.done()}
}

// touch writes to one entry of each page of b, so that a fresh buffer's
// pages are faulted in by the caller's goroutine.
func touch(b []int32) {
	for i := 0; i < len(b); i += 1024 {
		b[i] = -1
	}
}

type lexer struct {
	src []byte
	// toks[:n] are the tokens so far; the rest is room. Storing into a
	// slot is several times faster than append of a struct.
	toks []Token
	n    int
	// lineStart is true until the first token of a logical line that is not
	// space or comment: a '#' there starts a directive.
	lineStart bool
	inDir     bool
	// wantHeader is true right after "#include" (or include_next, import).
	wantHeader bool
	dirWords   int     // identifiers seen on this directive line
	includes   []int32 // token indexes of included header names
	scopes     []int32 // see Code.Scopes (Scan)
	// split sends comments to comments and leaves out newlines (Scan).
	split    bool
	comments []Token
	// match pairs brackets with m as they are emitted (Scan).
	match bool
	m     matcher
	// pos is where lexing starts, and resumes; run stops at the first
	// token boundary at or after limit.
	pos, limit int
	names      *Names  // marks Known identifiers (Scan)
	idents     *Idents // gets every identifier (Scan)
	// launchOpen is set from a kernel launch's <<< to its >>>: only
	// there is ">> >" a launch's closing bracket (see launchBracketEnd).
	launchOpen bool
}

// emit appends a code token (not space, newline or comment). The main
// loop of run makes room for one token before each step, and no step
// emits more than one.
func (l *lexer) emit(k Kind, start, end int) {
	// Field by field: a composite literal is built on the stack byte by
	// byte and then copied in wider loads, which stalls store forwarding.
	p := &l.toks[l.n]
	p.Start, p.End, p.Kind, p.Directive, p.LineStart, p.Known = int32(start), int32(end), k, l.inDir, l.lineStart, false
	l.n++
	l.lineStart = false
}

// grow makes room for more tokens, guessing from the bytes left. It is
// kept out of line so that emit inlines.
//
//go:noinline
func (l *lexer) grow() {
	more := len(l.toks)/2 + 64
	if guess := len(l.src) / 3; len(l.toks) < guess {
		more = guess - len(l.toks) + 64
	}
	l.toks = append(l.toks, make([]Token, more)...)
	if l.match {
		l.m.grow(len(l.toks))
	}
}

// emitGap appends a space, newline or comment token, which does not end
// the line's start.
func (l *lexer) emitGap(k Kind, start, end int) {
	switch {
	case !l.split:
		l.toks[l.n] = Token{Start: int32(start), End: int32(end), Kind: k, Directive: l.inDir}
		l.n++
	case k == Comment:
		l.comments = append(l.comments, Token{Start: int32(start), End: int32(end), Kind: k, Directive: l.inDir})
	}
}

var identTab [256]bool
var digitTab [256]bool

// Byte classes for the main loop of run.
const (
	cOther = iota
	cIdent
	cSpace
	cNewline
	cSlash
	cBackslash
	cDigit
	cDot
	cQuote
	cApos
	cLess
	cHash
	cPunct
	cSingle // a punctuator that is never the start of a longer one
)

var classTab [256]uint8

func init() {
	for c := 0; c < 256; c++ {
		identTab[c] = c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
		digitTab[c] = c >= '0' && c <= '9'
		switch {
		case identTab[c] && !digitTab[c]:
			classTab[c] = cIdent
		case digitTab[c]:
			classTab[c] = cDigit
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			classTab[c] = cSpace
		case c == '\n':
			classTab[c] = cNewline
		case c == '/':
			classTab[c] = cSlash
		case c == '\\':
			classTab[c] = cBackslash
		case c == '.':
			classTab[c] = cDot
		case c == '"':
			classTab[c] = cQuote
		case c == '\'':
			classTab[c] = cApos
		case c == '<':
			classTab[c] = cLess
		case c == '#':
			classTab[c] = cHash
		case strings.IndexByte("()[]{};,?~", byte(c)) >= 0:
			classTab[c] = cSingle
		case isPunctByte(byte(c)):
			classTab[c] = cPunct
		}
	}
}

func (l *lexer) run() {
	src := l.src
	n := len(src)
	i := l.pos
	for i < l.limit {
		if l.n >= len(l.toks) {
			l.grow()
		}
		c := src[i]
		start := i
		switch classTab[c] {
		case cIdent:
			i = l.identOrLiteral(i)
			continue
		case cSpace:
			i++
			for i < n && classTab[src[i]] == cSpace {
				i++
			}
			l.emitGap(Space, start, i)
			continue
		case cNewline:
			l.emitGap(Newline, i, i+1)
			i++
			l.inDir, l.lineStart, l.wantHeader, l.dirWords = false, true, false, 0
			continue
		case cBackslash:
			if k := continuation(src, i); k > 0 {
				i += k
				l.emitGap(Space, start, i)
				continue
			}
		case cSlash:
			if i+1 < n && src[i+1] == '/' {
				i = lineCommentEnd(src, i+2)
				l.emitGap(Comment, start, i)
				continue
			}
			if i+1 < n && src[i+1] == '*' {
				i = blockCommentEnd(src, i+2)
				l.emitGap(Comment, start, i)
				continue
			}
		case cHash:
			if l.lineStart {
				l.inDir = true
				if l.match {
					l.m.newLine()
				}
				l.emit(Punct, i, i+1)
				i++
				continue
			}
		case cDigit:
			i = numberEnd(src, i)
			l.emit(Number, start, i)
			continue
		case cDot:
			if i+1 < n && digitTab[src[i+1]] {
				i = numberEnd(src, i)
				l.emit(Number, start, i)
				continue
			}
		case cQuote:
			i = quotedEnd(src, i+1, '"')
			i = udSuffix(src, i)
			if l.wantHeader {
				l.includes = append(l.includes, int32(l.n))
				l.wantHeader = false
			}
			l.emit(String, start, i)
			continue
		case cApos:
			i = quotedEnd(src, i+1, '\'')
			i = udSuffix(src, i)
			l.emit(Char, start, i)
			continue
		case cLess:
			if l.wantHeader {
				i = headerEnd(src, i+1)
				l.includes = append(l.includes, int32(l.n))
				l.emit(HeaderName, start, i)
				l.wantHeader = false
				continue
			}
		case cSingle:
			if l.match {
				l.m.see(c, int32(l.n), l.inDir)
			}
			if c == ';' || c == '{' || c == '}' {
				l.launchOpen = false // a launch ends before its statement
			}
			l.emit(Punct, i, i+1)
			i++
			l.wantHeader = false
			continue
		case cOther:
			// A byte no punctuator starts.
			l.emit(Other, start, i+1)
			i++
			l.wantHeader = false
			continue
		}
		i = punctEnd(src, i)
		switch {
		case i > start+1:
			if c == '<' || c == '>' {
				i = l.launchBracketEnd(start, i)
			}
			l.emit(Punct, start, i)
		case isPunctByte(c):
			if l.match {
				l.m.see(c, int32(l.n), l.inDir)
			}
			l.emit(Punct, start, i)
		default:
			l.emit(Other, start, i)
		}
		l.wantHeader = false
	}
	l.pos = i
}

// launchBracketEnd returns the end of the punctuator at [start, end) that
// begins with < or >, extended over a kernel launch's bracket written with
// blanks inside: nvcc takes "<< <" for <<< and ">> >" for >>> (Visual
// Studio's formatter writes launches so), hipcc does not. "<<" then blanks
// then a lone "<" is a launch in any case (no C++ expression starts with
// "<"), unless "operator" comes before (operator<< <T>); ">> >" is one
// only while a launch is open, since it also closes three template
// argument lists. Blanks are spaces and tabs: nvcc takes no newline in the
// opening bracket.
func (l *lexer) launchBracketEnd(start, end int) int {
	src := l.src
	switch string(src[start:end]) {
	case "<<<":
		l.launchOpen = true
		return end
	case ">>>":
		l.launchOpen = false
		return end
	case "<<", ">>":
	default:
		return end
	}
	c := src[start]
	if c == '>' && !l.launchOpen {
		return end
	}
	j := end
	for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
		j++
	}
	if j == end || j >= len(src) || src[j] != c || punctEnd(src, j) != j+1 {
		return end
	}
	if c == '<' {
		if p := l.n - 1; p >= 0 && l.toks[p].Kind == Ident && string(src[l.toks[p].Start:l.toks[p].End]) == "operator" {
			return end
		}
	}
	l.launchOpen = c == '<'
	return j + 1
}

// continuation returns the length of a backslash-newline at i (2 or 3 with
// \r), or 0.
func continuation(src []byte, i int) int {
	if i+1 < len(src) && src[i+1] == '\n' {
		return 2
	}
	if i+2 < len(src) && src[i+1] == '\r' && src[i+2] == '\n' {
		return 3
	}
	return 0
}

// lineCommentEnd returns the end of a // comment whose text starts at i:
// the newline that is not continued by a backslash right before it.
func lineCommentEnd(src []byte, i int) int {
	for {
		j := bytes.IndexByte(src[i:], '\n')
		if j < 0 {
			return len(src)
		}
		j += i
		if Continued(src, j) {
			i = j + 1 // the comment goes on
			continue
		}
		return j
	}
}

// Continued reports whether the newline at nl (which may be just past the
// end of src) follows a backslash, with or without a carriage return
// between them: the logical line goes on after it.
func Continued(src []byte, nl int) bool {
	k := nl - 1
	if k >= 0 && k < len(src) && src[k] == '\r' {
		k--
	}
	return k >= 0 && k < len(src) && src[k] == '\\'
}

// blockCommentEnd returns the end of a /* */ comment whose text starts at
// i, or of src when it is not closed.
func blockCommentEnd(src []byte, i int) int {
	if j := bytes.Index(src[i:], []byte("*/")); j >= 0 {
		return i + j + 2
	}
	return len(src)
}

// quotedEnd returns the end of a literal whose opening quote ended before
// i. An unterminated literal ends before the newline.
func quotedEnd(src []byte, i int, q byte) int {
	for i < len(src) {
		switch src[i] {
		case q:
			return i + 1
		case '\n':
			return i
		case '\\':
			if k := continuation(src, i); k > 0 {
				i += k
				continue
			}
			i += 2
			if i > len(src) {
				return len(src)
			}
			continue
		}
		i++
	}
	return i
}

// LiteralEnd returns where the string or character literal text, a String
// or Char token, ends before its user-defined suffix: len(text) when it has
// none or is unterminated.
func LiteralEnd(text []byte) int {
	f := bytes.IndexAny(text, `"'`)
	if f < 0 {
		return len(text)
	}
	var end int
	if text[f] == '"' && bytes.IndexByte(text[:f], 'R') >= 0 {
		e, ok := rawStringEnd(text, f+1)
		if !ok {
			return len(text)
		}
		end = e
	} else {
		end = quotedEnd(text, f+1, text[f])
	}
	return min(end, len(text))
}

// udSuffix extends a literal over a user-defined literal suffix ("abc"_s).
func udSuffix(src []byte, i int) int {
	if i+1 < len(src) && src[i] == '_' && src[i+1] == '_' {
		// A suffix of two underscores is reserved: what follows a
		// literal so is a keyword glued to it (extern "C"__global__,
		// which nvcc takes), not part of it.
		return i
	}
	if i < len(src) && (src[i] == '_' || src[i] >= 'a' && src[i] <= 'z' || src[i] >= 'A' && src[i] <= 'Z') {
		for i < len(src) && identTab[src[i]] {
			i++
		}
	}
	return i
}

func headerEnd(src []byte, i int) int {
	for i < len(src) {
		switch src[i] {
		case '>':
			return i + 1
		case '\n':
			return i
		}
		i++
	}
	return i
}

// numberEnd scans a preprocessing number: digits, letters, dots, digit
// separators and signed exponents.
func numberEnd(src []byte, i int) int {
	i++
	for i < len(src) {
		c := src[i]
		switch {
		case (c == '+' || c == '-') && (src[i-1] == 'e' || src[i-1] == 'E' || src[i-1] == 'p' || src[i-1] == 'P'):
			i++
		case c == '\'' && i+1 < len(src) && identTab[src[i+1]]:
			i += 2
		case identTab[c] || c == '.':
			i++
		default:
			return i
		}
	}
	return i
}

// identOrLiteral scans an identifier, or a literal with an encoding prefix
// (u8"..", L'..', R"d(..)d").
func (l *lexer) identOrLiteral(start int) int {
	src := l.src
	i := start + 1
	for i < len(src) && identTab[src[i]] {
		i++
	}
	if i < len(src) && (src[i] == '"' || src[i] == '\'') {
		p := string(src[start:i])
		switch p {
		case "u8", "u", "U", "L":
			if src[i] == '"' {
				end := udSuffix(src, quotedEnd(src, i+1, '"'))
				l.emit(String, start, end)
				return end
			}
			end := udSuffix(src, quotedEnd(src, i+1, '\''))
			l.emit(Char, start, end)
			return end
		case "R", "u8R", "uR", "UR", "LR":
			if src[i] == '"' {
				if end, ok := rawStringEnd(src, i+1); ok {
					end = udSuffix(src, end)
					l.emit(String, start, end)
					return end
				}
			}
		}
	}
	l.emit(Ident, start, i)
	h := NameHash(src[start:i])
	if l.idents != nil {
		l.idents.add(h)
	}
	if l.names != nil && l.names.has(h) {
		l.toks[l.n-1].Known = true
	}
	if n := i - start; (n == 5 || n == 9) && l.split {
		if w := string(src[start:i]); w == "using" || w == "namespace" {
			l.scopes = append(l.scopes, int32(l.n-1))
		}
	}
	if l.inDir {
		l.dirWords++
		if l.dirWords == 1 {
			w := string(src[start:i])
			l.wantHeader = w == "include" || w == "include_next" || w == "import"
			if h := l.toks[l.n-2]; h.LineStart && src[h.Start] == '#' {
				if l.split {
					switch w {
					case "if", "ifdef", "ifndef", "elif", "else", "endif", "define":
						l.scopes = append(l.scopes, int32(l.n-2))
					}
				}
				if l.match {
					l.m.directive(src[start:i], int32(l.n-2))
				}
			}
		} else {
			l.wantHeader = false
		}
	}
	return i
}

// rawStringEnd scans R"delim( ... )delim" from just after the quote. ok is
// false when the delimiter is malformed, in which case the caller lexes an
// identifier followed by an ordinary string.
func rawStringEnd(src []byte, i int) (int, bool) {
	d := i
	for d < len(src) && d-i <= 16 {
		c := src[d]
		if c == '(' {
			break
		}
		if c == ')' || c == '\\' || c == ' ' || c == '\t' || c == '\n' || c == '"' {
			return 0, false
		}
		d++
	}
	if d >= len(src) || src[d] != '(' {
		return 0, false
	}
	delim := src[i:d]
	for j := d + 1; j < len(src); j++ {
		if src[j] != ')' {
			continue
		}
		k := j + 1
		if e := k + len(delim); e < len(src) && string(src[k:e]) == string(delim) && src[e] == '"' {
			return e + 1, true
		}
	}
	return len(src), true
}

func isPunctByte(c byte) bool {
	switch c {
	case '{', '}', '[', ']', '(', ')', ';', ':', ',', '.', '?', '~', '!', '%', '^', '&', '*', '-', '+', '=', '|', '<', '>', '/', '#':
		return true
	}
	return false
}

// punctEnd returns the end of the punctuator at i, longest match first.
func punctEnd(src []byte, i int) int {
	c := src[i]
	var c1, c2 byte
	if i+1 < len(src) {
		c1 = src[i+1]
	}
	if i+2 < len(src) {
		c2 = src[i+2]
	}
	switch c {
	case '<':
		if c1 == '<' && (c2 == '<' || c2 == '=') {
			return i + 3
		}
		if c1 == '<' || c1 == '=' {
			return i + 2
		}
	case '>':
		if c1 == '>' && (c2 == '>' || c2 == '=') {
			return i + 3
		}
		if c1 == '>' || c1 == '=' {
			return i + 2
		}
	case '.':
		if c1 == '.' && c2 == '.' {
			return i + 3
		}
		if c1 == '*' {
			return i + 2
		}
	case '-':
		if c1 == '>' && c2 == '*' {
			return i + 3
		}
		if c1 == '>' || c1 == '-' || c1 == '=' {
			return i + 2
		}
	case ':':
		if c1 == ':' {
			return i + 2
		}
	case '#':
		if c1 == '#' {
			return i + 2
		}
	case '+', '&', '|':
		if c1 == c || c1 == '=' {
			return i + 2
		}
	case '=', '!', '*', '/', '%', '^':
		if c1 == '=' {
			return i + 2
		}
	}
	return i + 1
}
