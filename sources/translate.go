package sources

import (
	"bytes"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/hipgen/hipgen/diag"
	"github.com/hipgen/hipgen/sources/hipmap"
	"github.com/hipgen/hipgen/sources/lex"
)

// edit replaces src[start:end] with text; start == end inserts. Comments
// inside a replaced range are carried over into the replacement (except an
// earlier generated-file marker), so no rewrite ever loses a comment.
type edit struct {
	start, end int
	text       string
}

// translator holds the state of one Translate call.
type translator struct {
	name string
	src  []byte
	opts Options
	tbl  *hipmap.Table
	ver  Version

	// toks are the significant tokens (no space, newline or comment),
	// without an earlier hipgen marker line and hipgen's own helper
	// blocks; positions (k) index them.
	toks     []lex.Token
	comments []lex.Token
	scopes   []int32 // where the carried state may change, see lex.Code.Scopes and split.go

	edits       []edit
	lineInserts int // edits[:lineInserts] are whole lines inserted by assemble
	diags       []diag.Diagnostic
	// posOff and posLine are the offset position was asked last and
	// the number of newlines before it; lines, once built, holds the
	// offset of each line start.
	posOff, posLine int
	lines           []int

	filters *tableFilters
	mapped  map[string]int

	// Include bookkeeping, see includes.go.
	runtimeIncludes []int // sig positions of '#' of includes that are (or become) hip_runtime.h
	firstHIPHeader  int   // sig position of the first include of another hip/ header, or -1
	mathUse         int   // sig position of the first unqualified isfinite, isnan, ... (see mathMacro), or -1
	mathIncluded    bool  // the file includes <math.h>
	needRuntime     bool
	insertAt        int // byte offset where a new include goes (after guard or #pragma once)
	oldMarker       [2]int
	bom             bool           // the output starts with a UTF-8 byte order mark (see cutBOM)
	helperRegion    bool           // the output already carries hipgen's warp helpers
	polyfillRegion  bool           // and its polyfills
	polyfills       map[string]int // CUDA names polyfilled -> offset of first use
	includeEnds     []int          // offsets just after each #include line
	deviceDecls     []int          // names that __device__ declarations without a body declare, see rdc.go
	needHelpers     bool
	conds           []condFrame         // #if nesting, see cudaarch.go
	deadOnHIP       bool                // inside a block hipcc never compiles
	replay          map[string]macroDef // on a copy replaying #if directives for fileMacros: what the last replay found
	asked           []string            // macros that blocks with warnings or errors test and nothing tells of (Stats.MacrosAsked)
	onAsk           *askHook            // told of the first of them, see Unit.OnAsk
	fp8Noted        bool                // the FP8 format warning is given once per file
	cutlassNoted    bool                // so is the CUTLASS namespace error
	coalescedNoted  bool                // and the coalesced-group hazard
	sharedLogical   bool                // a construct kept on logical warps beside the project's HIP code (see logicalWarp)
	nsScopes        []nsScope           // namespace aliases and using-directives, see qualified.go
	br              lex.Brackets        // the brackets of toks paired, see matching and openAround
	idents          *lex.Idents         // every identifier of the file (see mayName)
	maybeWGMMA      bool                // the bytes "wgmma" occur in the file
	facts           *fileFacts          // answers about the whole file, found on first need
	macroFacts      *macroFacts         // and those that depend on what project headers define
	names           *nameTables
	wave            waveState
}

// newTranslator takes over code, the tokens of src in pool buffers.
func newTranslator(name string, src []byte, code lex.Code, opts Options) *translator {
	t := newWalker(name, src, opts)
	t.toks, t.comments, t.scopes, t.br, t.idents = code.Tokens, code.Comments, code.Scopes, code.Brackets, code.Idents
	if t.filters != &generatedFilters {
		lex.Mark(src, t.toks, &t.filters.any.bits) // scan marked them for the default table
	}
	t.edits = getEdits(len(t.toks)/32 + 8)
	if t.dropHelperBlocks() {
		// Positions moved.
		t.br = lex.Match(t.src, t.toks, t.br)
		t.scopes = lex.FindScopes(t.src, t.toks, t.scopes[:0])
	}
	t.maybeWGMMA = containsText(src, "wgmma")
	return t
}

// newWalker returns a translator of src with no tokens yet and the state
// a walk starts from.
func newWalker(name string, src []byte, opts Options) *translator {
	t := &translator{name: name, src: src, opts: opts, tbl: opts.Table, ver: opts.ROCmVersion, facts: new(fileFacts), macroFacts: new(macroFacts), names: tables()}
	if t.tbl == nil {
		t.tbl = hipmap.Default()
	}
	if t.ver.IsZero() {
		t.ver = hipmap.DefaultROCm
	}
	t.filters = filtersFor(t.tbl)
	if t.opts.Wave == "" {
		t.opts.Wave = WaveAuto
	}
	if t.opts.Launch == "" {
		t.opts.Launch = LaunchChevron
	}
	// A .cu file is a CUDA translation unit: it always needs the runtime.
	t.needRuntime = strings.HasSuffix(name, ".cu")
	t.firstHIPHeader = -1
	t.mathUse = -1
	return t
}

// rewalker returns a translator for another walk of the tokens t
// prepared (see newTranslator), with opts and the state a walk starts
// from, and t's answers about the file (fileFacts, which do not read
// Options.IncludedMacros, the one option a second walk changes); t must
// walk no more.
func (t *translator) rewalker(opts Options) *translator {
	w := newWalker(t.name, t.src, opts)
	w.toks, w.comments, w.scopes, w.br = t.toks, t.comments, t.scopes, t.br
	w.oldMarker, w.helperRegion, w.polyfillRegion, w.maybeWGMMA = t.oldMarker, t.helperRegion, t.polyfillRegion, t.maybeWGMMA
	w.facts = t.facts // the answers that do not depend on opts.IncludedMacros
	w.edits = t.edits[:0]
	t.toks, t.comments, t.scopes, t.br, t.edits = nil, nil, nil, lex.Brackets{}, nil
	return w
}

// Markers that delimit the block of warp helpers hipgen inserts; the block
// is copied untouched when an output is translated again.
const (
	helperBegin = "// hipgen:begin warp helpers"
	helperEnd   = "// hipgen:end warp helpers"
)

// dropHelperBlocks finds an earlier hipgen marker line and hipgen's own
// helper blocks, and leaves the tokens of those blocks out of toks; it
// reports whether it left any out.
func (t *translator) dropHelperBlocks() bool {
	t.oldMarker = [2]int{-1, -1}
	inHelpers, from := false, 0
	var cut [][2]int32 // byte ranges of helper blocks
	for i, tk := range t.comments {
		text := t.src[tk.Start:tk.End]
		if i == 0 && tk.Start == 0 && bytes.HasPrefix(text, []byte(MarkerPrefix)) && bytes.HasSuffix(text, []byte("DO NOT EDIT.")) {
			end := int(tk.End)
			if end < len(t.src) && t.src[end] == '\n' {
				end++
			}
			t.oldMarker = [2]int{0, end}
		}
		if len(text) < len(polyfillEnd) || text[3] != 'h' { // none of the markers
			continue
		}
		switch {
		case bytes.Equal(text, []byte(helperBegin)):
			inHelpers, t.helperRegion, from = true, true, int(tk.End)
		case bytes.Equal(text, []byte(polyfillBegin)):
			inHelpers, t.polyfillRegion, from = true, true, int(tk.End)
		case bytes.Equal(text, []byte(helperEnd)), bytes.Equal(text, []byte(polyfillEnd)):
			if inHelpers {
				cut = append(cut, [2]int32{int32(from), tk.Start})
			}
			inHelpers = false
		}
	}
	if inHelpers {
		cut = append(cut, [2]int32{int32(from), int32(len(t.src))})
	}
	if len(cut) > 0 {
		kept := t.toks[:0]
		c := 0
		for _, tk := range t.toks {
			for c < len(cut) && tk.Start >= cut[c][1] {
				c++
			}
			if c < len(cut) && tk.Start >= cut[c][0] {
				continue
			}
			kept = append(kept, tk)
		}
		t.toks = kept
	}
	return len(cut) > 0
}

// fileFacts are answers to questions about a whole file, each found the
// first time it is asked: most files never ask, and most questions can be
// answered from where a name occurs, not from every token. The parts of a
// split walk (split.go) share them, so they are safe for concurrent use.
type fileFacts struct {
	archDefined fileFact // the file #defines __CUDA_ARCH__ (see definesArchItself)
	cgUse       fileFact // see usesCG
	torchUse    fileFact // see usesPyTorch
	warpCode    fileFact // see usesWarps
	fp8         fileFact // see fileNamesFP8
	half        fileFact // see fileNamesHalf
	longLong    fileFact // see fileNamesLongLong
	// namesBLAS and namesOtherLibs tell which libraries the file names
	// (see fileNamesLibraries), once librariesOnce has run.
	librariesOnce             sync.Once
	namesBLAS, namesOtherLibs bool
	deviceProps               fileFact // see fileReadsDeviceProps
	// defined holds, by name, the offsets of the definitions of the
	// functions of each name asked about (see definesFunction), under
	// definedMu.
	definedMu sync.Mutex
	defined   map[string][]int32
	// declared holds the names the file declares or defines a function
	// of, a member function with a trailing const or noexcept too (see
	// declaresFunction), once declaredOnce has run.
	declaredOnce sync.Once
	declared     map[string]bool
	// blockDecls holds, by name, the declarations of that name as a
	// thread_block, in token order (see declaredConstBlock), once
	// blockDeclsOnce has run.
	blockDeclsOnce sync.Once
	blockDecls     map[string][]blockDecl
	// defines holds the token indexes of the '#' of the file's #define
	// directives by name, once definesOnce has run (see definesAt).
	definesOnce sync.Once
	defines     map[string][]int32
	// half2 holds the names the file declares as __half2 or half2 (see
	// half2Names), once half2Once has run.
	half2Once sync.Once
	half2     map[string]bool
	// half2Funcs holds the functions it declares returning one.
	half2Funcs map[string]bool
	// pointerAttrs holds the names the file declares as a
	// cudaPointerAttributes (see pointerAttrNames), once pointerAttrsOnce
	// has run.
	pointerAttrsOnce sync.Once
	pointerAttrs     map[string]bool
	// textureDescs holds the names the file declares as a
	// cudaTextureDesc (see textureDescMember), once textureDescsOnce has
	// run.
	textureDescsOnce sync.Once
	textureDescs     map[string]bool
	// templates is what the file's template declarations say (see
	// templateFacts), once templatesOnce has run.
	templatesOnce sync.Once
	templates     templateFacts
}

// macroFacts is what the file's own #define directives say, which depends
// on what its project headers define (Options.IncludedMacros): unlike
// fileFacts, a walk with other macros from the headers finds them again.
type macroFacts struct {
	once sync.Once
	// macros holds what the #define directives of each name say (see
	// deadOnlyMacro), and dead the byte ranges of the blocks hipcc never
	// compiles, as the last replay of fileMacros found them.
	macros map[string]macroDef
	dead   [][2]int32
}

// macroDef is what a file's #define directives of one name say.
type macroDef struct {
	live bool  // some #define is outside every block hipcc never compiles
	dead int32 // the offset of the first #define inside such a block, or -1
}

// fileFact is one yes-or-no answer of fileFacts.
type fileFact struct {
	once sync.Once
	yes  bool
}

// get returns the answer, calling find to get it the first time.
func (f *fileFact) get(find func() bool) bool {
	f.once.Do(func() { f.yes = find() })
	return f.yes
}

// anyIdent reports whether is holds for some identifier of the file.
func (t *translator) anyIdent(is func([]byte) bool) bool {
	for _, tk := range t.toks {
		if tk.Kind == lex.Ident && is(t.src[tk.Start:tk.End]) {
			return true
		}
	}
	return false
}

// tok returns the k-th significant token; out of range gives an empty token.
func (t *translator) tok(k int) lex.Token {
	if uint(k) >= uint(len(t.toks)) {
		return lex.Token{Start: int32(len(t.src)), End: int32(len(t.src)), Kind: lex.Other}
	}
	return t.toks[k]
}

// text returns the bytes of the k-th significant token.
func (t *translator) text(k int) []byte {
	tk := t.tok(k)
	return t.src[tk.Start:tk.End]
}

// is reports whether the k-th significant token is exactly s.
func (t *translator) is(k int, s string) bool {
	if uint(k) >= uint(len(t.toks)) {
		return false
	}
	tk := t.toks[k]
	return string(t.src[tk.Start:tk.End]) == s
}

// launchBracket returns '<' when the k-th token opens a kernel launch's
// configuration (<<<, or "<< <" with blanks, which the lexer makes one
// token), '>' when it closes one (>>>, or ">> >"), and 0 otherwise.
func (t *translator) launchBracket(k int) byte {
	if uint(k) >= uint(len(t.toks)) {
		return 0
	}
	tk := t.toks[k]
	if tk.Kind != lex.Punct || tk.End-tk.Start < 3 {
		return 0
	}
	b := t.src[tk.Start:tk.End]
	if c := b[0]; (c == '<' || c == '>') && b[1] == c && b[len(b)-1] == c && (len(b) > 3 || b[2] == c) {
		return c
	}
	return 0
}

// isByte reports whether the k-th significant token is the one byte c.
func (t *translator) isByte(k int, c byte) bool {
	if uint(k) >= uint(len(t.toks)) {
		return false
	}
	tk := t.toks[k]
	return tk.End-tk.Start == 1 && t.src[tk.Start] == c
}

func (t *translator) replace(k int, s string) {
	tk := t.tok(k)
	t.edits = append(t.edits, edit{int(tk.Start), int(tk.End), s})
}

func (t *translator) insert(off int, s string) {
	t.edits = append(t.edits, edit{off, off, s})
}

// matching returns the position of the bracket closing the one at k (a
// '(', '[' or '{'), or -1.
func (t *translator) matching(k int) int {
	if uint(k) >= uint(len(t.toks)) {
		return -1
	}
	if tk := t.toks[k]; tk.Kind != lex.Punct || tk.End-tk.Start != 1 {
		return -1
	}
	switch t.src[t.toks[k].Start] {
	case '(', '[', '{':
		return int(t.br.Close[k])
	}
	return -1
}

// args splits the call arguments between the parenthesis at open and its
// match close into [first, last] significant-token ranges, splitting on
// commas outside nested brackets. Unbalanced brackets give ok false.
func (t *translator) args(open, close int) (list [][2]int, ok bool) {
	if close == open+1 {
		return nil, true
	}
	var out [][2]int
	depth, start := 0, open+1
	for j := open + 1; j < close; j++ {
		switch t.launchBracket(j) {
		case '<':
			depth++
			continue
		case '>':
			if depth--; depth < 0 {
				return nil, false
			}
			continue
		}
		switch string(t.text(j)) {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
			if depth < 0 {
				return nil, false
			}
		case ",":
			if depth == 0 {
				if j == start {
					return nil, false // empty argument
				}
				out = append(out, [2]int{start, j - 1})
				start = j + 1
			}
		}
	}
	if depth != 0 || start == close {
		return nil, false
	}
	return append(out, [2]int{start, close - 1}), true
}

// span returns the source bytes of significant tokens first..last with
// everything between them.
func (t *translator) span(first, last int) string {
	if last < first {
		return ""
	}
	return string(t.src[t.tok(first).Start:t.tok(last).End])
}

// tokenAt returns the position of the significant token starting at byte
// offset off, or -1.
func (t *translator) tokenAt(off int) int { return startingAt(t.toks, off) }

// mayName reports whether the file may have the identifier name in its
// code: false means that it does not.
func (t *translator) mayName(name string) bool {
	return t.idents == nil || t.idents.MayContain(name)
}

// eachUse calls f with the position of each token that is the identifier
// name, in order, while f returns true.
func (t *translator) eachUse(name []byte, f func(j int) bool) {
	needle := string(name)
	if !t.mayName(needle) {
		return
	}
	for off := 0; ; {
		off = indexText(t.src, needle, off)
		if off < 0 {
			return
		}
		j := t.tokenAt(off)
		off += len(name)
		if j < 0 || t.tok(j).Kind != lex.Ident || int(t.tok(j).End-t.tok(j).Start) != len(name) {
			continue
		}
		if !f(j) {
			return
		}
	}
}

// startingAt returns the index of the token of list (in source order) that
// starts at byte offset off, or -1.
func startingAt(list []lex.Token, off int) int {
	k := sort.Search(len(list), func(i int) bool { return int(list[i].Start) >= off })
	if k < len(list) && int(list[k].Start) == off {
		return k
	}
	return -1
}

// position converts a byte offset to a 1-based line and column. Reports
// come mostly in source order, so it counts the newlines from the offset
// asked last; the first report far behind that builds a table of line
// starts, used from then on.
func (t *translator) position(off int) (int, int) {
	off = min(max(off, 0), len(t.src))
	if t.lines == nil && off < t.posOff-4096 {
		t.lines = make([]int, 1, bytes.Count(t.src, []byte{'\n'})+1)
		for i := 0; ; {
			j := bytes.IndexByte(t.src[i:], '\n')
			if j < 0 {
				break
			}
			i += j + 1
			t.lines = append(t.lines, i)
		}
	}
	if t.lines != nil {
		l := sort.SearchInts(t.lines, off+1) - 1
		return l + 1, off - t.lines[l] + 1
	}
	nl := []byte{'\n'}
	if off >= t.posOff {
		t.posLine += bytes.Count(t.src[t.posOff:off], nl)
	} else {
		t.posLine -= bytes.Count(t.src[off:t.posOff], nl)
	}
	t.posOff = off
	return t.posLine + 1, off - (bytes.LastIndexByte(t.src[:off], '\n') + 1) + 1
}

// report adds a diagnostic at the k-th significant token.
func (t *translator) report(k int, sev diag.Severity, check, msg string) {
	t.reportAt(int(t.tok(k).Start), sev, check, msg)
}

func (t *translator) reportAt(off int, sev diag.Severity, check, msg string) {
	if t.replay != nil {
		return // fileMacros's replays drop what they find
	}
	if t.deadOnHIP && sev > diag.Note {
		// Code hipcc never compiles gets notes, once per file each (a
		// dead block of FP8 or PTX code would otherwise repeat one note
		// at every use); each place reports should the block ever be
		// compiled for AMD GPUs.
		sev = diag.Note
		msg = strings.TrimSuffix(msg, oncePerFile)
		if t.deadByZeroOnly() {
			msg += " (in an #if 0 block)"
		} else if t.deadByPlatform() {
			msg += " (in a block whose condition keeps it from AMD GPUs)"
		} else {
			msg += " (in a block hipcc never compiles, see the " + checkCUDAArch + " diagnostic)"
		}
		msg += oncePerFile
	} else if sev > diag.Note {
		t.askAbout()
		defer t.hipSwitchHint(off)
	}
	line, col := t.position(off)
	t.diags = append(t.diags, diag.Diagnostic{File: t.name, Line: line, Col: col, Severity: sev, Message: msg, Check: check})
}

// hipSwitchHint follows a warning or error at off inside the CUDA
// alternative of the project's own HIP code (the #else of "#ifdef
// USE_AMD_ROCM"), which HIP builds compile because nothing defines the
// switch for them: a note, once per file for each switch, says how to take
// the project's HIP code instead (Options.HIPDefines). Macros that HIP or
// the compiler defines (__HIP_DEVICE_COMPILE__, HIP_VERSION) and those the
// file or its headers define are no such switch.
func (t *translator) hipSwitchHint(off int) {
	for i := len(t.conds) - 1; i >= 0; i-- {
		f := t.conds[i].hip
		if !f.cudaAlt || f.macro == "" {
			continue
		}
		name := f.macro
		if !HIPSwitch(name) || t.hipDefined([]byte(name)) {
			return
		}
		if t.projectDefines(name) {
			return
		}
		t.reportAt(off, diag.Note, checkHIPDefines, "HIP builds compile this code because they do not define "+name+", which selects the project's own HIP code: if the project's ROCm build defines it, name it in the manifest's rocm.defines (or pass -D "+name+" to hipgen translate), and hipgen takes that code for HIP, defines "+name+" in its HIP builds and reports what is here as notes"+oncePerFile)
		return
	}
}

// lookupIdent asks the table about an identifier; the filter answers for
// most names that are not in it.
func (t *translator) lookupIdent(b []byte) (hipmap.Entry, bool) {
	if !t.filters.names.mayContain(b) {
		return hipmap.Entry{}, false
	}
	return t.tbl.IdentifierBytes(b, t.ver)
}

// run walks the significant tokens once, left to right.
func (t *translator) run() {
	t.start()
	t.runRange(0, len(t.toks))
}

// start sets up what the walk needs before its first token.
func (t *translator) start() {
	t.wave.init(t)
	t.insertAt = t.findInsertPoint()
}

// runRange walks the significant tokens from k while k < end, and returns
// where it stopped: end, or beyond it when a construct started before end
// reaches past it.
func (t *translator) runRange(k, end int) int {
	for k < end {
		tk := t.tok(k)
		if tk.Directive && tk.Kind == lex.Punct && t.is(k, "#") {
			k = t.directive(k)
			continue
		}
		switch tk.Kind {
		case lex.Ident:
			// No rule knows most identifiers of a file: one the lexer
			// did not mark Known, outside a directive, not followed by
			// "::", with no using-directive in scope (and no wgmma in
			// its name) is copied as it is.
			if !tk.Known && !tk.Directive && len(t.nsScopes) == 0 && !t.is(k+1, "::") && !(t.maybeWGMMA && hasWGMMA(t.text(k))) {
				k++
				continue
			}
			k = t.ident(k)
			continue
		case lex.Punct:
			if tk.End-tk.Start >= 3 && t.launchBracket(k) == '<' {
				k = t.launch(k)
				continue
			}
			if tk.End-tk.Start == 1 && t.src[tk.Start] == '=' && t.isByte(k+1, '{') {
				if t.isByte(k+2, '}') {
					t.half2EmptyAssign(k - 1)
				} else if t.isByte(k+3, '}') && t.is(k+2, "0") {
					t.vectorZeroInit(k)
				}
			}
			if tk.End-tk.Start == 2 && t.src[tk.Start] == ':' && t.src[tk.Start+1] == ':' && t.isByte(k+2, '<') && t.tok(k+1).Kind == lex.Ident {
				t.dependentTemplate(k)
			}
			if c := t.src[tk.Start]; c == '.' && tk.End-tk.Start == 1 || c == '-' && tk.End-tk.Start == 2 && t.src[tk.Start+1] == '>' {
				if t.isByte(k+1, 'x') || t.isByte(k+1, 'y') {
					t.half2MemberUse(k + 1)
				} else if n := t.tok(k + 1); n.Kind == lex.Ident && (n.End-n.Start == 4 || n.End-n.Start == 10) { // "type", "memoryType"
					t.pointerAttrMember(k + 1)
				} else if n.Kind == lex.Ident && (n.End-n.Start == 28 || n.End-n.Start == 15) { // textureDescMembers
					t.textureDescMember(k + 1)
				}
			}
		case lex.Number:
			t.number(k)
		case lex.String, lex.Char:
			if tk.Kind == lex.String {
				t.stringLiteral(k)
			}
			t.gluedSuffix(k)
			// A keyword glued to a literal (extern "C"__global__) is
			// set apart: clang reads the pair as a user-defined literal.
			if nx := k + 1; nx < len(t.toks) && t.toks[nx].Start == tk.End && t.toks[nx].Kind == lex.Ident {
				t.insert(int(tk.End), " ")
			}
		}
		k++
	}
	return k
}

// gluedSuffix sets apart a macro glued to the string or character literal
// at k ("%"PRIu64, Rodinia's "In node ("fNID"): ..."): C++11 reads the
// name as a user-defined literal suffix, which clang (hipcc) rejects where
// GCC, nvcc's host compiler, warns and expands the macro. A suffix that
// can be one (_x, and s or sv after a string: std::literals) stays, and so
// do a name the translation would rename and one before anything but
// another literal or the end of an argument (left as written).
func (t *translator) gluedSuffix(k int) {
	b := t.text(k)
	end := lex.LiteralEnd(b)
	if end == len(b) {
		return
	}
	suffix := b[end:]
	switch string(suffix) {
	case "u8", "u", "U", "L", "R", "u8R", "uR", "UR", "LR":
		return // set apart, it would prefix the next literal
	}
	if suffix[0] == '_' || t.tok(k).Kind == lex.String && (string(suffix) == "s" || string(suffix) == "sv") {
		return
	}
	if _, ok := t.lookupIdent(suffix); ok || t.hasOwnRule(suffix) {
		return
	}
	// As a format string's piece, before more of it or the end of an
	// argument; before anything else the name could start a construct
	// (a call, a launch) that set apart it would be.
	if nx := t.tok(k + 1); !(nx.Kind == lex.String || t.isByte(k+1, ')') || t.isByte(k+1, ',') || t.isByte(k+1, ';')) {
		return
	}
	t.insert(int(t.tok(k).Start)+end, " ")
}

// shimMacro reports whether the identifier at k, the name a #define
// defines, must keep its CUDA spelling: the project defines a CUDA name
// as its own stand-in for HIP (#define cudaMemAttachHost
// hipMemAttachHost, #define __syncwarp() ..., #define __shfl_xor_sync(m,
// v, l, w) __shfl_xor(v, l, w)). Renamed, the first would redefine HIP's
// own name as itself, and the others would define hipgen's helpers or
// HIP's intrinsics. A macro that redirects a CUDA name elsewhere
// (#define cudaMalloc my_malloc) is renamed like its uses, so that it
// still redirects them.
func (t *translator) shimMacro(k int) bool {
	tk := t.tok(k)
	if tk.Kind != lex.Ident || !tk.Directive {
		return false
	}
	b := t.text(k)
	if t.hasOwnRule(b) {
		return true
	}
	e, ok := t.lookupIdent(b)
	if !ok || !e.Renames() {
		return false
	}
	for j, end := k+1, t.endOfDirective(k-2); j < end; j++ { // k-2 is the '#'
		if t.tok(j).Kind == lex.Ident && string(t.text(j)) == e.HIP {
			return true
		}
	}
	return false
}

// hasOwnRule reports whether the identifier b has a rule of its own
// (specialNames) or a polyfill, beside what the table says of it.
func (t *translator) hasOwnRule(b []byte) bool {
	if _, ok := t.names.special[string(b)]; ok {
		return true
	}
	_, ok := t.names.polyfills[string(b)]
	return ok
}

// directive handles a preprocessor line starting at the '#' at k and
// returns the position after the part it consumed.
func (t *translator) directive(k int) int {
	if !t.tok(k + 1).Directive {
		return k + 1
	}
	switch string(t.text(k + 1)) {
	case "include", "include_next", "import":
		t.include(k)
		return t.endOfDirective(k)
	case "pragma", "error", "warning", "line", "ident":
		return t.endOfDirective(k)
	case "define":
		t.define(k)
		if t.shimMacro(k + 2) {
			return k + 3
		}
		return k + 2
	case "undef":
		// A CUDA name is undefined under its HIP name only where the
		// file's own #define of it was renamed (see shimMacro): anything
		// else would undefine HIP's macro.
		if tk := t.tok(k + 2); tk.Kind == lex.Ident && tk.Directive {
			for _, d := range t.definesAt()[string(t.text(k+2))] {
				if !t.shimMacro(int(d) + 2) {
					return k + 2
				}
			}
			return k + 3
		}
		return k + 1
	case "if", "ifdef", "ifndef", "elif", "else", "endif":
		t.conditional(k, string(t.text(k+1)))
		return k + 2
	}
	return k + 1
}

func (t *translator) endOfDirective(k int) int {
	j := k + 1
	for j < len(t.toks) && t.tok(j).Directive && !(t.is(j, "#") && t.isLineStart(j)) {
		j++
	}
	return j
}

// isLineStart reports whether the k-th significant token is the first on
// its line.
func (t *translator) isLineStart(k int) bool {
	return t.tok(k).LineStart
}

// ident handles an identifier at k that some rule may know (see run):
// special constructs first, then the mapping table.
func (t *translator) ident(k int) int {
	b := t.text(k)
	if t.is(k+1, ";") && t.redeclaresBuiltinVariable(k) {
		return k + 1
	}
	if next, handled := t.special(k, b); handled {
		return next
	}
	if len(b) > 6 && t.tok(k).Directive && t.guardMacro(k) {
		return k + 1
	}
	if len(b) == 9 && t.redefinesBuiltin(k) {
		return k + 1
	}
	if len(b) >= 4 && t.names.polyfillFilter.mayContain(b) && t.usePolyfill(k, b) {
		return k + 1
	}
	// Qualified names such as cub::BlockReduce are looked up whole first,
	// longest prefix first (see qualified.go).
	if t.is(k+1, "::") && t.tok(k+2).Kind == lex.Ident && t.chainStart(k) {
		if next, handled := t.qualifiedName(k); handled {
			return next
		}
	} else if len(t.nsScopes) > 0 && t.usingDirectiveName(k, b) {
		return k + 1
	}
	e, ok := t.lookupIdent(b)
	if !ok {
		return k + 1
	}
	if e.Family == pytorchFamily {
		return t.pytorchName(k, e)
	}
	if t.declaresTypeAt(k) {
		return k + 1 // the project's own declaration of the name (see declaresTypeAt)
	}
	e = t.libraryDataType(k, e)
	if e.CUDA == "CUresult" {
		t.driverOverload(k)
	}
	if flag, ok := mapFlagsAsRegister[e.CUDA]; ok && !t.isMacroNameOperand(k) {
		t.replace(k, flag)
		t.needRuntime = true
		t.report(k, diag.Note, "call-fix", e.CUDA+" became "+flag+": CUDA's map and register flags of a graphics resource have the same values (cudaGraphicsGLRegisterBuffer takes either), and HIP has only the register flags; cudaGraphicsResourceSetMapFlags, which takes map flags, has no HIP equivalent and is reported where called"+oncePerFile)
		return k + 1
	}
	if tag, ok := structTags[e.CUDA]; ok && t.is(k-1, "struct") && e.Available(t.ver) {
		t.replace(k, tag) // "struct cudaGraphicsResource *r"
		t.needRuntime = true
		t.count(e)
		return k + 1
	}
	t.applyEntry(k, e)
	if fix, ok := callFixes()[e.CUDA]; ok && e.Available(t.ver) {
		t.fixCall(k, fix, e)
	}
	switch e.CUDA {
	case "cudaDevAttrWarpSize":
		t.deviceWarpSize(k, "the device attribute "+e.HIP)
	case "cudaDevAttrComputeCapabilityMajor", "cudaDevAttrComputeCapabilityMinor":
		t.computeCapability(k)
	}
	return k + 1
}

// driverOverload renames a function defined with the one parameter
// CUresult at k when the file defines the same name for cudaError_t as
// well: HIP's driver and runtime errors are both hipError_t, so the two
// overloads are one function, defined twice (cuda-samples' helper_cuda.h,
// whose _cudaGetErrorEnum has both where the file defines
// CUDA_DRIVER_API). Renamed, the driver one is left unused, and the calls
// take the runtime one, which names the same errors.
func (t *translator) driverOverload(k int) {
	o := k - 1
	if t.is(o, "const") {
		o--
	}
	if !t.isByte(o, '(') || t.tok(o-1).Kind != lex.Ident || cppKeywords()[string(t.text(o-1))] {
		return
	}
	close := t.matching(o)
	if close < 0 || !t.is(close+1, "{") || close > k+2 || close == k+2 && t.tok(k+1).Kind != lex.Ident {
		return
	}
	name := t.text(o - 1)
	runtime := false
	t.eachUse(name, func(j int) bool {
		if j == o-1 || !t.isByte(j+1, '(') {
			return true
		}
		c := t.matching(j + 1)
		if c < 0 || !t.is(c+1, "{") {
			return true
		}
		p := j + 2
		if t.is(p, "const") {
			p++
		}
		runtime = t.is(p, "cudaError_t") || t.is(p, "cudaError")
		return !runtime
	})
	if !runtime {
		return
	}
	t.replace(o-1, "hipgen_driver_"+string(name))
	t.report(o-1, diag.Warning, "builtin-redefinition", string(name)+"(CUresult) and "+string(name)+"(cudaError_t) are one function in HIP, whose driver and runtime errors are both hipError_t, and hipcc rejects the second definition: this one became hipgen_driver_"+string(name)+", which nothing calls, and the calls take the other")
}

// mapFlagsAsRegister are CUDA's map flags of a graphics resource, which
// HIP lacks (with cudaGraphicsResourceSetMapFlags), as the register flags
// of the same value that HIP has: cuda-samples' simpleGL passes
// cudaGraphicsMapFlagsWriteDiscard to cudaGraphicsGLRegisterBuffer,
// through a function of its own.
var mapFlagsAsRegister = map[string]string{
	"cudaGraphicsMapFlagsNone":         "hipGraphicsRegisterFlagsNone",
	"cudaGraphicsMapFlagsReadOnly":     "hipGraphicsRegisterFlagsReadOnly",
	"cudaGraphicsMapFlagsWriteDiscard": "hipGraphicsRegisterFlagsWriteDiscard",
}

// structTags are the struct tags of HIP's types whose names, the
// translations of a CUDA struct tag, are typedefs: after "struct" the tag
// serves (clang: "typedef 'hipGraphicsResource' cannot be referenced with
// a struct specifier", in cuda-samples' OpenGL interop).
var structTags = map[string]string{"cudaGraphicsResource": "_hipGraphicsResource"}

// redefinesBuiltin renames a definition at k of atomicMax or atomicMin for
// float or double, which CUDA lacks and projects define themselves (a
// compare-and-swap loop; HeCBench's michalewicz), or of atomicAdd for
// double, which CUDA has only from compute capability 6.0 and projects
// define for older GPUs (cuda-samples' jacobiCudaGraphs, under "#if
// __CUDA_ARCH__ >= 600 #else", which hipcc takes); HIP declares them all
// (amd_hip_atomic.h in ROCm 5.2), and hipcc rejected the project's as a
// redefinition. Renamed, it is left unused, and the calls take HIP's.
func (t *translator) redefinesBuiltin(k int) bool {
	if !redefinedBuiltin(string(t.text(k)), string(t.text(k-1))) || !t.is(k+1, "(") || t.deadInFile() {
		return false // not one, or in a block hipcc never compiles (see olderArchBlock)
	}
	typ := string(t.text(k - 1))
	close := t.matching(k + 1)
	if close < 0 || !t.is(close+1, "{") {
		return false
	}
	name := string(t.text(k))
	lacks := "which CUDA lacks"
	if name == "atomicAdd" {
		lacks = "which CUDA has only from compute capability 6.0"
	}
	t.replace(k, "hipgen_own_"+name)
	t.report(k, diag.Warning, "builtin-redefinition", "HIP already defines "+typ+" "+name+"("+typ+"*, "+typ+"), "+lacks+", and hipcc rejects a second definition: this one became hipgen_own_"+name+", which nothing calls, and the calls take HIP's (a compare-and-swap loop too); check that the two agree where it matters to you (NaN, -0.0)")
	return true
}

// redeclaresBuiltinVariable renames a declaration at k of one of CUDA's
// built-in variables, "extern const dim3 blockDim;" (ccminer's
// cuda_helper.h declares blockDim and threadIdx so for its host compile):
// HIP's headers declare them with types of their own, and hipcc rejected
// the project's as a redeclaration. Renamed, it declares a variable that
// nothing uses, and the code takes HIP's.
func (t *translator) redeclaresBuiltinVariable(k int) bool {
	switch string(t.text(k)) {
	case "threadIdx", "blockIdx", "blockDim", "gridDim":
	default:
		return false
	}
	if !t.is(k-1, "dim3") && !t.is(k-1, "uint3") || t.deadInFile() {
		return false
	}
	extern := false
	for i := k - 2; i >= k-3 && i >= 0; i-- {
		extern = extern || t.is(i, "extern")
	}
	if !extern {
		return false
	}
	name := string(t.text(k))
	t.replace(k, "hipgen_own_"+name)
	t.report(k, diag.Warning, "builtin-redefinition", "HIP's headers declare "+name+" with a type of their own, and hipcc rejects this declaration of it as a "+string(t.text(k-1))+": it became hipgen_own_"+name+", which nothing uses, and the code takes HIP's "+name)
	return true
}

// redefinedBuiltin reports whether a definition of the function name
// returning typ is one of HIP's atomics that CUDA lacks (see
// redefinesBuiltin).
func redefinedBuiltin(name, typ string) bool {
	switch name {
	case "atomicMax", "atomicMin":
		return typ == "float" || typ == "double"
	case "atomicAdd":
		return typ == "double"
	}
	return false
}

// HostSource reports whether the file name is that of a C or C++ source
// (.c, .cpp, .cc, .cxx), which CUDA builds give the host compiler, not
// nvcc.
func HostSource(name string) bool {
	switch path.Ext(name) {
	case ".c", ".cpp", ".cc", ".cxx":
		return true
	}
	return false
}

func (t *translator) applyEntry(k int, e hipmap.Entry) {
	if !e.Available(t.ver) {
		t.unavailable(k, e)
		return
	}
	if runtimeFamily(e.Family) && !(e.Family == "math" && !e.Renames() && HostSource(t.name)) {
		// (A C or C++ source's sqrtf is the C library's: nvcc never
		// compiles it, so hip_runtime.h has nothing to give it.)
		t.needRuntime = true
	}
	if e.Renames() {
		t.replace(k, e.HIP)
		t.count(e)
		if e.Family == "fp8" && strings.Contains(e.HIP, "fnuz") && !t.fp8Noted {
			t.fp8Noted = true
			t.report(k, diag.Warning, "fp8-format", e.CUDA+" is OCP FP8 but "+e.HIP+" is the fnuz format of gfx94x (e4m3 max 240 instead of 448, no negative zero, one NaN); results differ from CUDA near the range limits, and other AMD GPUs use OCP FP8")
		}
	}
	t.noteDeprecated(k, e)
}

func (t *translator) count(e hipmap.Entry) {
	if t.mapped == nil {
		t.mapped = map[string]int{}
	}
	t.mapped[e.Family]++
}

func (t *translator) noteDeprecated(k int, e hipmap.Entry) {
	if e.Status != hipmap.Deprecated {
		return
	}
	msg := e.CUDA + " is deprecated"
	if e.Note != "" {
		msg += " (" + e.Note + ")"
	}
	if e.HIP != e.CUDA {
		msg += "; translated to " + e.HIP
	}
	t.report(k, diag.Warning, "deprecated-api", msg)
}

// unavailable reports a known CUDA name that the target ROCm cannot port.
func (t *translator) unavailable(k int, e hipmap.Entry) {
	if t.definesFunction(e.CUDA) {
		return // the project defines it itself, typically as its own fallback
	}
	if t.isMacroNameOperand(k) {
		return // #define X, #undef X, #ifdef X or defined(X): not a use of X
	}
	if (e.Family == "math" || e.Family == "device") && !t.calledFunction(k) {
		// umin, saturate, mul24: CUDA's device functions with names a
		// project gives its own variables and members (CImg's "const
		// unsigned int umin = Q(0);", HeCBench's bm3d) are missing only
		// where called.
		return
	}
	if t.errorCodeCase(k, e.CUDA) {
		return
	}
	var msg string
	switch {
	case e.Status == hipmap.Unsupported:
		msg = e.CUDA + " has no HIP equivalent"
	case !e.MinROCm.IsZero() && t.ver.Less(e.MinROCm):
		msg = e.CUDA + " needs ROCm " + e.MinROCm.String() + " or later (" + e.HIP + "); translating for ROCm " + t.ver.String()
	default:
		msg = e.CUDA + " is not available in ROCm " + t.ver.String()
	}
	if e.Note != "" {
		msg += " (" + e.Note + ")"
	}
	if !e.MaxROCm.IsZero() && e.Status != hipmap.Unsupported {
		// A name that changes later (FP8: FNUZ types in ROCm 6.2, CUDA's
		// OCP formats from 6.3) names the later release too.
		if later, ok := t.tbl.Identifier(e.CUDA, e.MaxROCm); ok && later.Available(e.MaxROCm) && later.HIP != e.HIP {
			msg += "; from ROCm " + e.MaxROCm.String() + ": " + later.HIP
		}
	}
	if line := t.macroDefinedAt(e.CUDA); line > 0 {
		// A shim of the project's own (a vendor header mapping CUDA
		// names for another platform, a fallback for old CUDA): whether
		// it is in effect for HIP is up to its #if, so hipcc decides.
		t.report(k, diag.Warning, "unsupported-api", msg+"; the file defines "+e.CUDA+" as a macro at line "+strconv.Itoa(line)+
			", so its uses compile where that definition is in effect for HIP"+oncePerFile)
		return
	}
	t.report(k, diag.Error, "unsupported-api", msg)
}

// errorCodeCase comments out "case NAME:" where NAME, at k, is an error
// code of CUDA or of one of its libraries that the target ROCm lacks (the
// switch of an old helper_cuda.h that names every cudaError_t): no HIP
// call returns it, so the label is never reached, and the statements after
// it stay where they are, reached as before from the label above them.
func (t *translator) errorCodeCase(k int, name string) bool {
	if t.deadInFile() || !isErrorCode(name) || !t.is(k-1, "case") || !t.isByte(k+1, ':') || t.tok(k).Directive {
		return false
	}
	t.edits = append(t.edits, edit{int(t.tok(k - 1).Start), int(t.tok(k + 1).End), "/* hipgen: case " + name + ": */"})
	t.report(k-1, diag.Note, "unsupported-api", "a case label of a CUDA error code that HIP lacks was commented out: no HIP call returns it, so the label is never reached; the statements after it stay, reached as before from the label above them"+oncePerFile)
	return true
}

// isErrorCode reports whether name is an enumerator of the CUDA runtime's
// or driver's error codes or of a CUDA library's status codes (cuFFT's
// results by their names: CUFFT_ names modes and formats too).
func isErrorCode(name string) bool {
	for _, p := range [...]string{"cudaError", "CUDA_ERROR_", "CUBLAS_STATUS_", "CUSPARSE_STATUS_", "CURAND_STATUS_", "CUSOLVER_STATUS_", "NVRTC_ERROR_", "CUTENSOR_STATUS_"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	if rest, ok := strings.CutPrefix(name, "CUFFT_"); ok {
		switch rest {
		case "NOT_SUPPORTED", "NOT_IMPLEMENTED", "NO_WORKSPACE", "UNALIGNED_DATA", "INCOMPLETE_PARAMETER_LIST", "MISSING_DEPENDENCY":
			return true
		}
		return strings.HasPrefix(rest, "INVALID_") || strings.HasSuffix(rest, "_ERROR") || strings.HasSuffix(rest, "_FAILED") || strings.HasSuffix(rest, "_FAILURE")
	}
	return false
}

// calledFunction reports whether the identifier at k is called as a free
// function: a '(' after it, and no '.', '->' or '::' before it (a member or
// another namespace's function of the same name), nor a type name (a
// declaration of the project's own: "float saturate(float x) const").
func (t *translator) calledFunction(k int) bool {
	return t.isByte(k+1, '(') && !t.isMember(k) && !t.is(k-1, "::") && !t.declaresHere(k)
}

// isMember reports whether the identifier at k follows '.' or '->' of the
// same line of code or directive: the '.' ending "#pragma once." is not
// before a name on the next line.
func (t *translator) isMember(k int) bool {
	return (t.is(k-1, ".") || t.is(k-1, "->")) && t.tok(k-1).Directive == t.tok(k).Directive
}

// declaresHere reports whether the name at k follows a type name, as the
// name a declaration declares does ("float saturate(float x)"): an
// identifier that is no keyword, both outside directives (the "once" of
// "#pragma once" comes before no declaration).
func (t *translator) declaresHere(k int) bool {
	p := t.tok(k - 1)
	return p.Kind == lex.Ident && !p.Directive && !t.tok(k).Directive && !cppKeywords()[string(t.text(k-1))]
}

// isMacroNameOperand reports whether the identifier k is the macro name
// of a #define, #undef, #ifdef, #ifndef, #elifdef or #elifndef directive,
// or the operand of defined in #if or #elif: a name there is not a use.
func (t *translator) isMacroNameOperand(k int) bool {
	if !t.tok(k).Directive || k < 2 {
		return false
	}
	if t.isByte(k-2, '#') && t.isLineStart(k-2) {
		switch string(t.text(k - 1)) {
		case "define", "undef", "ifdef", "ifndef", "elifdef", "elifndef":
			return true
		}
	}
	return t.tok(k-1).Directive && (t.is(k-1, "defined") || t.isByte(k-1, '(') && t.tok(k-2).Directive && t.is(k-2, "defined"))
}

// macroDefinedAt returns the line of the file's first #define of name, or
// 0 when the file does not define it.
func (t *translator) macroDefinedAt(name string) int {
	if at := t.definesAt()[name]; len(at) > 0 {
		return t.lineOf(int(t.toks[at[0]].Start))
	}
	return 0
}

// definesAt returns, by name, the token indexes of the '#' of the file's
// #define directives, found once in one pass over the tokens.
func (t *translator) definesAt() map[string][]int32 {
	f := t.facts
	f.definesOnce.Do(func() {
		f.defines = map[string][]int32{}
		for _, sc := range t.scopes { // the '#' of each #define is there
			if n, ok := t.definedName(int(sc)); ok {
				f.defines[n] = append(f.defines[n], sc)
			}
		}
	})
	return f.defines
}

// definedName returns the name a #define defines, for the token k among
// t.scopes (see lex.Code.Scopes); ok is false for any other.
func (t *translator) definedName(k int) (name string, ok bool) {
	if t.toks[k].Kind != lex.Punct || !t.is(k+1, "define") || !t.tok(k+2).Directive || t.tok(k+2).Kind != lex.Ident {
		return "", false
	}
	return string(t.text(k + 2)), true
}

// lineOf returns the line of the byte at off.
func (t *translator) lineOf(off int) int {
	line, _ := t.position(off)
	return line
}

// deadOnlyMacro tells where name is first defined ("line 12", or
// "common.cuh, line 279" for a project header the file includes, see
// Options.IncludedMacros) when every #define of it in the file and in
// those headers is inside a block hipcc never compiles (an architecture
// test of __CUDA_ARCH__, say): name is then never defined for AMD GPUs.
// It returns "" otherwise.
func (t *translator) deadOnlyMacro(name string) string {
	inc, included := t.opts.IncludedMacros[name]
	if included && inc.Live {
		return ""
	}
	macros := t.replay
	if macros == nil && len(t.definesAt()[name]) > 0 {
		macros = t.fileMacros()
	}
	if d, ok := macros[name]; ok { // the file defines it
		if d.live {
			return ""
		}
		return "line " + strconv.Itoa(t.lineOf(int(d.dead)))
	}
	if included {
		return inc.Where
	}
	return ""
}

// unknownMacro reports whether name, tested by #ifdef or defined, is a
// macro that neither the file nor Options.IncludedMacros tells of. A name
// that speaks of HIP or ROCm (GGML_USE_HIP) selects the AMD build, which
// the build defines, not a header in blocks for NVIDIA GPUs: no question.
func (t *translator) unknownMacro(name string) bool {
	return !t.projectDefines(name) && name != "__CUDA_ARCH__" && !namesHIP(name)
}

// projectDefines reports whether the file, or a project header it
// includes (Options.IncludedMacros), #defines the macro name.
func (t *translator) projectDefines(name string) bool {
	_, ok := t.opts.IncludedMacros[name]
	return ok || len(t.definesAt()[name]) > 0
}

// namesHIP reports whether a macro's name speaks of HIP or ROCm.
func namesHIP(name string) bool {
	n := strings.ToUpper(name)
	return strings.Contains(n, "HIP") || strings.Contains(n, "ROCM")
}

// askAbout records, for a warning or error about to be reported, the
// unknown macros whose tests enclose it (see condFrame.unknown): if a
// project header defines one of them only in blocks hipcc never compiles,
// the finding is in such a block too.
func (t *translator) askAbout() {
	for _, f := range t.conds {
		for rest := f.unknown; rest != ""; {
			var name string
			name, rest, _ = strings.Cut(rest, "\x00")
			t.asked = append(t.asked, name)
			t.onAsk.fire()
		}
	}
}

// deadOnly reports whether macros has name defined only in blocks hipcc
// never compiles.
func deadOnly(macros map[string]macroDef, name string) bool {
	d, ok := macros[name]
	return ok && !d.live
}

// fileMacros collects the file's #define directives once, replaying its
// #if directives on a copy of the translator to tell which are inside
// blocks hipcc never compiles. A block may be closed by a macro that an
// earlier replay found defined only in such blocks ("#if
// defined(TURING_MMA_AVAILABLE)"), so the replay is repeated until it
// finds no more of them (at most a few times: chains are short).
func (t *translator) fileMacros() map[string]macroDef {
	f := t.macroFacts
	f.once.Do(func() {
		var dead map[string]macroDef
		for range 4 {
			m, ranges := t.replayDefines(dead)
			f.dead = ranges
			changed := false
			for n := range m {
				if deadOnly(m, n) && !deadOnly(dead, n) {
					changed = true
				}
			}
			f.macros, dead = m, m
			if !changed {
				break
			}
		}
	})
	return f.macros
}

// replayDefines replays the file's #if directives on a copy of the
// translator, the macros of dead (from an earlier replay) closing blocks,
// and returns what its #define directives say and the byte ranges of the
// blocks hipcc never compiles.
func (t *translator) replayDefines(dead map[string]macroDef) (map[string]macroDef, [][2]int32) {
	var ranges [][2]int32
	wasDead := false
	// mark ends or starts a dead range at the directive k.
	mark := func(k int, s *translator) {
		if s.deadOnHIP != wasDead {
			if s.deadOnHIP {
				ranges = append(ranges, [2]int32{t.toks[k].Start, int32(len(t.src))})
			} else {
				ranges[len(ranges)-1][1] = t.toks[k].Start
			}
			wasDead = s.deadOnHIP
		}
	}
	macros := make(map[string]macroDef, len(t.definesAt()))
	s := t.fork() // the replay's edits and diagnostics are dropped
	s.conds, s.deadOnHIP, s.replay = nil, false, dead
	if s.replay == nil {
		s.replay = map[string]macroDef{}
	}
	for _, sc := range t.scopes { // the #if and #define directives
		k := int(sc)
		if t.toks[k].Kind != lex.Punct { // namespace or using
			continue
		}
		n, ok := t.definedName(k)
		if !ok {
			s.conditional(k, string(t.text(k+1)))
			mark(k, s)
			continue
		}
		d, seen := macros[n]
		if !seen {
			d = macroDef{dead: -1}
		}
		if !s.deadOnHIP {
			d.live = true
		} else if d.dead < 0 {
			d.dead = t.toks[k].Start
		}
		macros[n] = d
	}
	return macros, ranges
}

// runtimeFamily reports whether names of a family come from hip_runtime.h
// (as opposed to a library with its own header).
func runtimeFamily(f string) bool {
	switch f {
	case "runtime", "driver", "device", "math", "intrinsics", "types", "fp16", "bf16", "vector", "cooperative_groups":
		return true
	}
	return strings.HasPrefix(f, "runtime") || strings.HasPrefix(f, "driver") || strings.HasPrefix(f, "device")
}
