package sources

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/hipgen/hipgen/diag"
	"github.com/hipgen/hipgen/sources/lex"
)

// Check names of the wavefront rules.
const (
	checkWaveLogical = "wave64-logical-warp" // a construct kept on 32-lane logical warps
	checkWaveWiden   = "wave64-widen"        // a construct widened to the wavefront
	checkWaveHazard  = "wave64-hazard"       // no safe rewrite exists
	checkWarpLiteral = "warp-size-literal"   // a literal 32 (or 31, 5) left in place
	checkWaveNative  = "wave64-native"       // the project's own HIP code, left as written
)

// waveState is what the translator knows about warp-level code in one file.
type waveState struct {
	wide bool
	// narrow holds 32-bit variables that hold widened ballots (wide mode).
	narrow map[string]bool
	// missed lists the names isNarrow answered no for, when track is
	// set: a part of a split walk (see split.go) answers for its own
	// widenings only, and is valid only if the parts before it widened
	// none of these.
	missed []string
	track  bool
}

// isNarrow reports whether the variable name was widened to hold a ballot.
func (w *waveState) isNarrow(name string) bool {
	if w.narrow[name] {
		return true
	}
	if w.track {
		w.missed = append(w.missed, name)
	}
	return false
}

// warpIntrinsics are the CUDA warp-level functions, with the helper or
// builtin each becomes with 32-lane logical warps.
var warpIntrinsics = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"__ballot_sync": "hipgen_ballot32", "__activemask": "hipgen_activemask32",
		"__any_sync": "hipgen_any32", "__all_sync": "hipgen_all32", "__uni_sync": "hipgen_uni32",
		"__match_any_sync": "hipgen_match_any32", "__match_all_sync": "hipgen_match_all32",
		"__shfl_sync": "__shfl", "__shfl_up_sync": "__shfl_up", "__shfl_down_sync": "__shfl_down", "__shfl_xor_sync": "__shfl_xor",
		"__syncwarp":        "hipgen_syncwarp",
		"__reduce_add_sync": "hipgen_reduce_add32", "__reduce_min_sync": "hipgen_reduce_min32", "__reduce_max_sync": "hipgen_reduce_max32",
		"__reduce_and_sync": "hipgen_reduce_and32", "__reduce_or_sync": "hipgen_reduce_or32", "__reduce_xor_sync": "hipgen_reduce_xor32",
		// Pre-CUDA 9 forms: 32-bit results and a default width of 32 in CUDA,
		// 64-bit results and a default width of warpSize in HIP.
		"__ballot": "hipgen_ballot32", "__any": "hipgen_any32", "__all": "hipgen_all32",
		"__shfl": "__shfl", "__shfl_up": "__shfl_up", "__shfl_down": "__shfl_down", "__shfl_xor": "__shfl_xor",
	}
})

func (w *waveState) init(t *translator) {
	w.wide = t.opts.Wave == WaveWide
	w.narrow = map[string]bool{}
}

// usesWarps reports whether the file names a warp intrinsic or
// warpSize anywhere, looking at its identifiers the first time it is
// asked (files without the literals it matters for never pay). The names
// are special names (see specialNames), so only identifiers marked Known
// can be one.
func (t *translator) usesWarps() bool {
	return t.facts.warpCode.get(func() bool {
		for _, tk := range t.toks {
			if tk.Known && isWarpName(t.src[tk.Start:tk.End]) {
				return true
			}
		}
		return false
	})
}

// isWarpName reports whether b names a warp intrinsic or warpSize.
func isWarpName(b []byte) bool {
	if len(b) > 3 && b[0] == '_' && warpInitial[b[2]] || len(b) == 8 && b[0] == 'w' {
		_, ok := warpIntrinsics()[string(b)]
		return ok || string(b) == "warpSize"
	}
	return false
}

// fileNamesFP8 reports whether the file works with CUDA's FP8 types,
// whose formats hipgen maps to those of AMD GPUs: it includes cuda_fp8.h,
// or an identifier names one (__nv_fp8_e4m3, __nv_cvt_float_to_fp8,
// PyTorch's Float8_e4m3fn), and another says fp8 or e4m3 (a clamp to 448
// before a conversion). Code that only encodes e4m3 in software keeps
// OCP's bound on every GPU. It is asked only when a literal 448 occurs,
// rarely, so it looks at the whole file then instead of at every
// identifier in advance.
func (t *translator) fileNamesFP8() bool {
	return t.facts.fp8.get(func() bool {
		return mayNameFP8(t.src) && (containsText(t.src, "cuda_fp8.h") || t.anyIdent(namesFP8Type)) && t.anyIdent(namesFP8)
	})
}

// namesFP8Type reports whether the identifier b names one of CUDA's FP8
// types or conversions, or PyTorch's.
func namesFP8Type(b []byte) bool {
	return (bytes.HasPrefix(b, []byte("__nv_")) || bytes.Contains(b, []byte("Float8_"))) && namesFP8(b)
}

// warpInitial holds the letters that follow "__" in warpIntrinsics.
var warpInitial = func() (m [256]bool) {
	for name := range warpIntrinsics() {
		m[name[2]] = true
	}
	return m
}()

// mayNameFP8 reports whether src holds fp8, FP8, e4m3 or E4M3 anywhere,
// so that identifiers need to be looked at (see namesFP8). The digits are
// rare in code, so it searches for them.
func mayNameFP8(src []byte) bool {
	for i := 0; ; {
		j := bytes.IndexByte(src[i:], '8')
		if j < 0 {
			break
		}
		i += j + 1
		if j := i - 1; j >= 2 && (src[j-2] == 'f' && src[j-1] == 'p' || src[j-2] == 'F' && src[j-1] == 'P') {
			return true
		}
	}
	return containsText(src, "4m3") || containsText(src, "4M3")
}

// namesFP8 reports whether the identifier b contains fp8, FP8, e4m3 or
// E4M3, in one pass over it.
func namesFP8(b []byte) bool {
	for i := 2; i < len(b); i++ {
		switch b[i] {
		case '8':
			if b[i-2] == 'f' && b[i-1] == 'p' || b[i-2] == 'F' && b[i-1] == 'P' {
				return true
			}
		case 'm', 'M':
			if i+1 < len(b) && b[i+1] == '3' && b[i-1] == '4' && (b[i] == 'm' && b[i-2] == 'e' || b[i] == 'M' && b[i-2] == 'E') {
				return true
			}
		}
	}
	return false
}

// warpCall rewrites a call of a CUDA warp intrinsic at k.
func (t *translator) warpCall(k int, name string) int {
	t.needRuntime = true
	open := k + 1
	args, close, ok := t.call(k)
	if !ok || len(args) > 1 && t.hasLiteral(args[0][0], args[0][1]) || name == "__activemask" && len(args) > 0 || t.hasOpenLiteral(open, close) {
		// Malformed (__activemask takes no argument, or a literal is
		// never closed, so that text added after it would join it), or a
		// mask with a literal in it, which dropping the mask would
		// delete: left as written.
		return k + 1
	}
	if t.wave.wide {
		return t.warpCallWide(k, name, open, close, args)
	}
	legacy := !strings.HasSuffix(name, "_sync") && name != "__activemask" && name != "__syncwarp"
	switch {
	case strings.HasPrefix(name, "__shfl"):
		t.shuffleOfAnyType(k)
		want := 3 // var, lane, width
		if !legacy {
			want = 4 // mask first
		}
		if !legacy {
			if len(args) < 3 {
				return k + 1
			}
			t.replace(k, warpIntrinsics()[name])
			// Drop the 32-bit mask: HIP's __shfl needs none, and ROCm 6.2's
			// __shfl_sync would reject a 32-bit one.
			t.edits = append(t.edits, edit{int(t.tok(args[0][0]).Start), int(t.tok(args[1][0]).Start), ""})
		}
		// Before the width is added: at the same offset, the first
		// insertion comes first.
		if (name == "__shfl" || name == "__shfl_sync") && len(args) >= want-1 {
			width := "32"
			if len(args) == want {
				width = t.copiedSpan(args[want-1][0], args[want-1][1])
			}
			t.wrapSourceLane(args[want-2], width)
		}
		if len(args) == want-1 {
			t.insert(int(t.tok(close).Start), ", 32")
			t.logicalWarp(k, name+": 32-lane logical warp (width 32): the CUDA code assumes 32-lane warps, so each half of a 64-wide wavefront shuffles on its own")
		} else if len(args) == want && !legacy {
			t.logicalWarp(k, name+": kept the explicit width, which is at most 32 in CUDA code, so the shuffle stays inside a 32-lane logical warp")
		}
	case name == "__syncwarp":
		t.needHelpers = true
		t.replace(k, warpIntrinsics()[name])
		t.report(k, diag.Note, checkWaveWiden, "__syncwarp: widened to a wavefront barrier; a wavefront runs in lockstep, so ordering memory for the whole wavefront covers the 32-lane warp")
	case legacy: // __ballot, __any, __all without a mask
		t.needHelpers = true
		t.replace(k, warpIntrinsics()[name])
		t.insert(int(t.tok(open).End), "0xffffffffu, ")
		t.logicalWarp(k, name+": pre-CUDA 9 form returns 32 lanes in CUDA but 64 in HIP; kept a 32-lane logical warp")
	default:
		t.needHelpers = true
		t.replace(k, warpIntrinsics()[name])
		t.logicalWarp(k, name+": 32-lane logical warp: results hold the lane's 32-lane half of the wavefront, so 32-bit masks, __popc, __ffs and lane arithmetic keep their CUDA meaning")
	}
	return k + 1
}

// warpCallWide maps a warp intrinsic onto the whole wavefront.
func (t *translator) warpCallWide(k int, name string, open, close int, args [][2]int) int {
	if !strings.HasSuffix(name, "_sync") && name != "__activemask" && name != "__syncwarp" {
		// Pre-CUDA 9 forms already mean the whole wavefront in HIP.
		t.report(k, diag.Note, checkWaveWiden, name+": kept; in HIP it covers the whole wavefront")
		return k + 1
	}
	dropMask := func() {
		if len(args) > 1 {
			t.edits = append(t.edits, edit{int(t.tok(args[0][0]).Start), int(t.tok(args[1][0]).Start), ""})
		}
	}
	switch name {
	case "__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync":
		t.shuffleOfAnyType(k)
		t.replace(k, strings.TrimSuffix(name, "_sync"))
		dropMask()
		if len(args) == 4 {
			// An explicit width is the code's own segment: kept.
			width := t.span(args[3][0], args[3][1])
			t.logicalWarp(k, name+": kept the explicit width "+width+", so the shuffle stays inside segments of that many lanes")
			if name == "__shfl_sync" {
				t.wrapSourceLane(args[2], t.copiedSpan(args[3][0], args[3][1]))
			}
		} else {
			t.report(k, diag.Note, checkWaveWiden, name+": widened to the wavefront (width warpSize), as --wave=wide asks")
		}
	case "__ballot_sync", "__any_sync", "__all_sync":
		t.replace(k, strings.TrimSuffix(name, "_sync"))
		dropMask()
		t.report(k, diag.Note, checkWaveWiden, name+": widened to the wavefront; the result has warpSize bits")
		if name == "__ballot_sync" {
			t.widenBallotVar(k)
		}
	case "__activemask":
		t.replace(k, "__ballot")
		t.insert(int(t.tok(open).End), "1")
		t.report(k, diag.Note, checkWaveWiden, "__activemask: widened to __ballot(1), warpSize bits")
		t.widenBallotVar(k)
	case "__syncwarp":
		t.needHelpers = true
		t.replace(k, "hipgen_syncwarp")
		t.report(k, diag.Note, checkWaveWiden, "__syncwarp: widened to a wavefront barrier")
	default:
		t.needHelpers = true
		t.replace(k, warpIntrinsics()[name])
		t.report(k, diag.Warning, checkWaveHazard, name+": no wavefront-wide form; kept a 32-lane logical warp, which disagrees with the widened code around it if lanes 32-63 take part")
	}
	return k + 1
}

// widenBallotVar handles "unsigned m = __ballot_sync(...)" in wide mode: a
// 32-bit variable would drop lanes 32-63, so it becomes 64-bit.
func (t *translator) widenBallotVar(k int) {
	if !t.is(k-1, "=") || t.tok(k-2).Kind != lex.Ident {
		return
	}
	name := string(t.text(k - 2))
	j := k - 3
	first := -1
	for ; j >= 0 && t.tok(j).Kind == lex.Ident; j-- {
		switch string(t.text(j)) {
		case "unsigned", "int", "uint32_t", "signed", "long", "const":
			first = j
			continue
		}
		break
	}
	if first < 0 {
		if t.tok(k-3).Kind != lex.Ident && !t.is(k-3, "::") {
			t.report(k, diag.Warning, checkWaveHazard, "ballot result assigned to "+name+": make sure it is 64-bit (unsigned long long); lanes 32-63 are lost otherwise")
		}
		return
	}
	if t.is(first, "const") {
		first++
	}
	t.edits = append(t.edits, edit{int(t.tok(first).Start), int(t.tok(k - 3).End), "unsigned long long"})
	t.wave.narrow[name] = true
	t.report(first, diag.Note, checkWaveWiden, "widened "+name+" to 64 bits to hold a wavefront-wide ballot")
}

// bitCall handles __popc, __ffs and __clz on ballot masks.
func (t *translator) bitCall(k int, name string) int {
	open := k + 1
	if !t.is(open, "(") {
		return k + 1
	}
	close := t.matching(open)
	if close < 0 {
		return k + 1
	}
	arg := t.span(open+1, close-1)
	wideArg := strings.Contains(arg, "__ballot(") && !strings.Contains(arg, "hipgen_") || t.wave.wide && (t.wave.isNarrow(arg) || strings.Contains(arg, "__ballot_sync") || strings.Contains(arg, "__activemask"))
	if !wideArg {
		if strings.Contains(arg, "__ballot_sync") || strings.Contains(arg, "__activemask") {
			t.logicalWarp(k, name+" on a ballot mask: kept the 32-bit form; ballots are 32-lane logical warp masks")
		}
		return k + 1
	}
	if name == "__clz" {
		t.replace(k, "__clzll")
		t.report(k, diag.Warning, checkWaveHazard, "__clz on a 64-bit ballot mask became __clzll, which counts from bit 63: expressions such as 31 - __clz(mask) must use 63")
		return k + 1
	}
	t.replace(k, name+"ll")
	if name == "__ffs" {
		// As ffsllArgument converts the argument of a __ffsll of the
		// source, so that a second translation changes nothing.
		t.castToLongLong(open+1, close)
	}
	t.report(k, diag.Note, checkWaveWiden, name+" on a 64-bit ballot mask widened to "+name+"ll")
	return k + 1
}

// logicalWarp reports at k, with msg, a warp construct kept on 32-lane
// logical warps, and remembers whether it is compiled beside the
// project's own HIP code (outside every branch that only builds where a
// test of HIP fails take; see mixedWarps).
func (t *translator) logicalWarp(k int, msg string) {
	if !t.wave.wide && !t.inCudaAlt() {
		t.sharedLogical = true
	}
	t.report(k, diag.Note, checkWaveLogical, msg)
}

// mixedWarps warns, at the first of the notes on the project's own HIP
// warp code (wave64-native, which ds holds sorted), when the file's CUDA
// warp code compiled beside it keeps 32-lane logical warps: the two agree
// on CDNA GPUs only where no warp size, lane index or mask passes between
// them. ds is returned with the warning in place.
func (t *translator) mixedWarps(ds []diag.Diagnostic) []diag.Diagnostic {
	if !t.sharedLogical {
		return ds
	}
	for i, d := range ds {
		if d.Check != checkWaveNative {
			continue
		}
		w := d
		w.Severity, w.Check = diag.Warning, checkWaveHazard
		w.Message = "this file has warp code of the project's own for HIP, left as written (the whole wavefront: 64 lanes on CDNA), and CUDA warp code compiled beside it that hipgen keeps on 32-lane logical warps: a warp size, lane index or mask that passes from one to the other (a WARP_SIZE defined as warpSize in a HIP branch bounding a loop of CUDA shuffles) disagrees on CDNA GPUs; route the CUDA code's warp operations through the project's HIP wrappers, or check that no such value crosses"
		return slices.Insert(ds, i, w)
	}
	return ds
}

// warpSizeIdent handles the device-side warpSize.
func (t *translator) warpSizeIdent(k int) int {
	if t.is(k-1, ".") || t.is(k-1, "->") {
		t.deviceWarpSize(k, "the device property warpSize")
		return k + 1
	}
	if t.wave.wide || t.is(k-1, "::") {
		return k + 1
	}
	t.needHelpers = true
	t.replace(k, "hipgen_warp_size")
	t.logicalWarp(k, "warpSize: 32-lane logical warp (hipgen_warp_size = 32), consistent with the width-32 shuffles and 32-bit ballots of the translation")
	return k + 1
}

// deviceWarpSize warns at k, where what names the device's warp size in
// host code, that it disagrees with the translated kernels' 32-lane
// logical warps (with --wave=wide they span the wavefront too).
func (t *translator) deviceWarpSize(k int, what string) {
	if t.wave.wide {
		return
	}
	t.report(k, diag.Warning, checkWaveHazard, what+" is 64 on CDNA GPUs, but translated device code uses 32-lane logical warps: sizes computed from it (warps per block, shared memory) disagree with the kernels; use 32")
}

// number looks at numeric literals: lane and warp arithmetic with 31, 32
// and 5, full 32-bit masks, and FP8 bounds.
func (t *translator) number(k int) {
	b := t.text(k)
	if len(b) > 12 || b[0] < '0' || b[0] > '9' {
		return
	}
	if len(b) >= 3 && b[0] == '4' && b[1] == '4' && b[2] == '8' && isFP8Max(b) && t.fileNamesFP8() {
		t.report(k, diag.Warning, "fp8-range", "448 is the largest e4m3 value in OCP FP8 (NVIDIA, gfx950, RDNA4), but gfx94x uses e4m3 fnuz whose largest value is 240; derive it from the type (for example std::numeric_limits) or select per architecture")
	}
	if len(b) > 13 || len(b) > 2 && b[1] != 'x' && b[1] != 'X' {
		return // not 5, 16, 31, 32 or 0xffffffff with a suffix
	}
	if t.inNative() {
		return // the project's HIP code counts lanes as it means to
	}
	for len(b) > 1 && (b[len(b)-1]|0x20 == 'u' || b[len(b)-1]|0x20 == 'l') {
		b = b[:len(b)-1]
	}
	var s string
	switch {
	case bytes.EqualFold(b, []byte("0xffffffff")):
		s = "0xffffffff"
	case string(b) == "5", string(b) == "16", string(b) == "31", string(b) == "32":
		s = string(b)
	default:
		return
	}
	if !t.usesWarps() {
		return
	}
	b = t.text(k)
	op := string(t.text(k - 1))
	switch {
	case s == "0xffffffff":
		if t.insideWarpCall(k) {
			return
		}
		t.report(k, diag.Note, checkWarpLiteral, "full 32-lane mask kept: warp intrinsics use 32-lane logical warps, so it still means every lane of the warp")
	case (s == "31" && op == "&") || (s == "32" && op == "%") || (s == "5" && op == ">>") || (s == "32" && op == "/" && t.laneOperand(k-2)):
		if t.wave.wide {
			t.report(k, diag.Warning, checkWarpLiteral, "lane or warp index computed with "+op+" "+string(b)+" while warp intrinsics are widened to warpSize; use warpSize")
			return
		}
		if t.laneOperand(k-2) || t.assignsLaneOrWarp(k) {
			t.report(k, diag.Note, checkWarpLiteral, op+" "+string(b)+" left in place: lane and warp indices count 32-lane logical warps, matching the translated intrinsics")
		}
	case s == "16" && t.inShuffleLoopHeader(k):
		t.report(k, diag.Note, checkWarpLiteral, "shuffle loop from 16 left in place: it reduces a 32-lane logical warp and the shuffles use width 32")
	}
}

func isFP8Max(b []byte) bool {
	s := strings.TrimRight(string(b), "fFlL")
	return s == "448" || s == "448.0" || s == "448." || s == "448.0e0"
}

// laneOperand reports whether the operand ending at k looks like a thread
// or lane index (threadIdx.x, tid, lane_id, ...).
func (t *translator) laneOperand(k int) bool {
	if t.tok(k).Kind != lex.Ident {
		return false
	}
	s := strings.ToLower(string(t.text(k)))
	if (s == "x" || s == "y" || s == "z") && t.is(k-1, ".") && t.is(k-2, "threadIdx") {
		return true
	}
	return strings.Contains(s, "tid") || strings.Contains(s, "lane") || strings.Contains(s, "thread") || s == "i" && false
}

// assignsLaneOrWarp reports whether the statement around k assigns a
// variable named like a lane or warp index.
func (t *translator) assignsLaneOrWarp(k int) bool {
	for j := k - 1; j >= 0 && j > k-12; j-- {
		s := string(t.text(j))
		if s == ";" || s == "{" || s == "}" {
			return false
		}
		if s == "=" && t.tok(j-1).Kind == lex.Ident {
			n := strings.ToLower(string(t.text(j - 1)))
			return strings.Contains(n, "lane") || strings.Contains(n, "warp") || strings.Contains(n, "wid")
		}
	}
	return false
}

// insideWarpCall reports whether k is an argument of a warp intrinsic call.
func (t *translator) insideWarpCall(k int) bool {
	depth := 0
	for j := k - 1; j >= 0 && j > k-64; j-- {
		switch string(t.text(j)) {
		case ")":
			depth++
		case "(":
			if depth == 0 {
				_, ok := warpIntrinsics()[string(t.text(j-1))]
				return ok
			}
			depth--
		case ";", "{", "}":
			return false
		}
	}
	return false
}

// inShuffleLoopHeader reports whether the 16 at k initialises a for loop
// that halves its counter.
func (t *translator) inShuffleLoopHeader(k int) bool {
	if !t.is(k-1, "=") {
		return false
	}
	for j := k - 2; j >= 0 && j > k-8; j-- {
		if t.is(j, "(") && t.is(j-1, "for") {
			close := t.matching(j)
			if close < 0 {
				return false
			}
			h := t.span(j, close)
			return strings.Contains(h, "/= 2") || strings.Contains(h, ">>= 1") || strings.Contains(h, "/2") || strings.Contains(h, ">>=1")
		}
	}
	return false
}

// define looks at "#define NAME 32" for warp sizes.
func (t *translator) define(k int) {
	t.pragmaInMacro(k)
	if t.tok(k+2).Kind != lex.Ident || !t.tok(k+3).Directive || t.tok(k+4).Directive && !t.is(k+4, "#") {
		return
	}
	t.warpSizeConstant(k+2, k+3)
}

// pragmaInMacro rewrites "#define NAME #pragma text", at k, as
// "#define NAME _Pragma("text")": nvcc expands the first into a pragma
// (moderngpu's PRAGMA_UNROLL), clang into a stray '#'. A pragma's text
// that holds a literal or a comment, or spans lines, is left as it is.
func (t *translator) pragmaInMacro(k int) {
	if t.tok(k+2).Kind != lex.Ident || !t.is(k+3, "#") || t.isLineStart(k+3) || !t.tok(k+3).Directive ||
		!t.is(k+4, "pragma") || !t.tok(k+4).Directive || t.tok(k+2).End == t.tok(k+3).Start {
		return
	}
	last := t.endOfDirective(k) - 1
	if last == k+4 {
		return
	}
	for j := k + 5; j <= last; j++ {
		if kind := t.tok(j).Kind; kind != lex.Ident && kind != lex.Number && kind != lex.Punct {
			return // a literal, whose bytes hipgen never rewrites
		}
	}
	rest := t.src[t.tok(last).End:]
	if i := bytes.IndexByte(rest, '\n'); i >= 0 {
		rest = rest[:i]
	}
	if bytes.IndexByte(rest, '\\') >= 0 {
		return // the line goes on (a continuation) or ends in a stray backslash
	}
	// With no literal in it, a backslash in the text is a continuation.
	body := t.src[t.tok(k+5).Start:t.tok(last).End]
	if bytes.IndexByte(body, '\\') >= 0 || bytes.Contains(body, []byte("/*")) || bytes.Contains(body, []byte("//")) {
		return
	}
	t.edits = append(t.edits, edit{int(t.tok(k + 3).Start), int(t.tok(last).End), `_Pragma("` + string(body) + `")`})
}

// warpSizeConstant notes a constant named like a warp size set to 32.
func (t *translator) warpSizeConstant(nameK, valK int) {
	n := strings.ToLower(string(t.text(nameK)))
	v := strings.TrimRight(string(t.text(valK)), "uUlL")
	if v != "32" || !strings.Contains(n, "warp") || !(strings.Contains(n, "size") || strings.Contains(n, "lanes") || strings.Contains(n, "threads")) || t.inNative() {
		return
	}
	if t.wave.wide {
		t.report(valK, diag.Warning, checkWarpLiteral, string(t.text(nameK))+" = 32 while warp intrinsics are widened to warpSize (64 on CDNA); use warpSize")
		return
	}
	t.report(valK, diag.Note, checkWarpLiteral, string(t.text(nameK))+" = 32 left in place: the translation keeps 32-lane logical warps, so this stays the warp size")
}

// sharedArray notes __shared__ arrays sized by warps per block.
func (t *translator) sharedArray(k int) {
	for j := k + 1; j < len(t.toks) && j < k+12; j++ {
		if t.is(j, ";") || t.is(j, "=") {
			return
		}
		if !t.is(j, "[") {
			continue
		}
		close := t.matching(j)
		if close < 0 {
			return
		}
		size := t.span(j+1, close-1)
		l := strings.ToLower(size)
		if size == "32" || strings.Contains(l, "/ 32") || strings.Contains(l, "/32") || strings.Contains(l, "warp") {
			if t.wave.wide {
				return
			}
			t.report(j+1, diag.Note, checkWarpLiteral, "shared array sized by warps per block ("+size+") left in place: warps are counted as 32-lane logical warps")
		}
		return
	}
}

// hasLiteral reports whether significant tokens first..last include a
// string or character literal.
func (t *translator) hasLiteral(first, last int) bool {
	for j := first; j <= last; j++ {
		if kind := t.tok(j).Kind; kind == lex.String || kind == lex.Char {
			return true
		}
	}
	return false
}

// hasOpenLiteral reports whether a string or character literal among the
// tokens first..last is never closed: the lexer ends it at the end of its
// line, and whatever the translation inserted right after it would be
// inside it.
func (t *translator) hasOpenLiteral(first, last int) bool {
	for j := first; j <= last; j++ {
		tk := t.tok(j)
		q := byte('"')
		switch tk.Kind {
		case lex.Char:
			q = '\''
		case lex.String:
		default:
			continue
		}
		if e := int(tk.End); t.src[e-1] != q && (e == len(t.src) || t.src[e] == '\n' || t.src[e] == '\r') || tk.End-tk.Start == 1 {
			return true
		}
	}
	return false
}

// copiedSpan returns the text of tokens first..last for a copy into the
// output, or "" when a rule may rewrite one of them (a known name, a
// literal, a launch bracket): the copy would keep the CUDA spelling and
// translating the output again would change it.
func (t *translator) copiedSpan(first, last int) string {
	for j := first; j <= last; j++ {
		switch tk := t.tok(j); {
		case tk.Known, tk.Kind == lex.String, tk.Kind == lex.Char, t.launchBracket(j) != 0:
			return ""
		}
	}
	return t.span(first, last)
}

// wrapSourceLane makes the source lane of an indexed shuffle of the given
// width wrap as CUDA's does. CUDA reads lane srcLane modulo width, within
// the caller's segment; HIP adds the segment's first lane to srcLane
// unwrapped, so lane 31 asking for lane + 1 reads lane 32, the other
// logical warp of a 64-wide wavefront, instead of lane 0. The lane
// becomes "(srcLane) & (width - 1)" (width is a power of two), unless it
// is a literal below a literal width or already masked so.
func (t *translator) wrapSourceLane(lane [2]int, width string) {
	if width == "" {
		return // a width the translation rewrites cannot be copied as written
	}
	mask := "((" + width + ") - 1)"
	if w, err := strconv.ParseUint(strings.TrimRight(width, "uUlL"), 0, 8); err == nil && w > 0 {
		mask = strconv.FormatUint(w-1, 10)
		if lane[0] == lane[1] && t.tok(lane[0]).Kind == lex.Number {
			if l, err := strconv.ParseUint(strings.TrimRight(string(t.text(lane[0])), "uUlL"), 0, 8); err == nil && l < w {
				return
			}
		}
	}
	if strings.HasSuffix(t.span(lane[0], lane[1]), "& "+mask) {
		return // already wrapped (the output of an earlier translation)
	}
	t.insert(int(t.tok(lane[0]).Start), "(")
	t.insert(int(t.tok(lane[1]).End), ") & "+mask)
}
