// Package sources owns the translation of CUDA sources into HIP: a
// token-aware, table-driven, single-pass rewrite of one file (Translate),
// the #include graph between project files (Includes, IncludeClosure) and
// the layout of the generated tree (OutputPath).
//
// Translate is pure: bytes in, bytes and diagnostics out. Nothing in this
// package reads or writes files, runs processes or looks at the environment;
// the CLI and the builder do that and pass what they found in. The mapping
// facts live in sources/hipmap; this package decides how to apply them, and
// how to keep code written for 32-wide warps correct on 64-wide wavefronts.
//
// One pass over the tokens of sources/lex collects edits (never inside a
// comment or a string literal, #include paths aside); a large file's pass
// runs in parts on several cores with the same result (split.go), as its
// lexing does (lex.ScanParallel). assemble.go applies
// them and adds the generated-file marker, the one hip_runtime.h include and
// the blocks hipgen defines itself: the warp helpers (helpers.go, wave.go)
// and polyfills for functions HIP lacks (polyfill.go). Those blocks are
// delimited by marker comments and copied untouched when an output is
// translated again, which is how translation stays idempotent. Preprocessor
// conditionals on __CUDA_ARCH__ and on CUDA header guards are tracked
// (cudaarch.go, guards.go) because hipcc defines neither.
package sources

import (
	"bytes"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/hipgen/hipgen/diag"
	"github.com/hipgen/hipgen/sources/hipmap"
	"github.com/hipgen/hipgen/sources/lex"
)

// Version is a ROCm release; the zero Version means hipmap.DefaultROCm (5.2).
type Version = hipmap.Version

// Launch selects how kernel launches are written.
type Launch string

// Launch styles.
const (
	// LaunchChevron keeps k<<<grid, block, shmem, stream>>>(args), which
	// hipcc accepts.
	LaunchChevron Launch = "chevron"
	// LaunchGGL rewrites launches to hipLaunchKernelGGL for compilers that
	// lack the chevron syntax (HIP-CPU).
	LaunchGGL Launch = "ggl"
)

// Wave selects how warp-level code is mapped onto AMD wavefronts.
type Wave string

// Wave strategies.
const (
	// WaveAuto keeps 32-lane logical warps wherever the CUDA code's meaning
	// depends on the warp width, and widens to the wavefront only where that
	// is equivalent. It is the default because it is correct for code that
	// hardcodes 32, which is most CUDA code.
	WaveAuto Wave = "auto"
	// WaveWide widens every warp construct to the real wavefront
	// (warpSize), for code that is warp-size generic throughout.
	WaveWide Wave = "wide"
)

// Options controls one translation. The zero value is valid.
type Options struct {
	// ROCmVersion is the release that will compile the output; zero means 5.2.
	ROCmVersion Version
	// Launch is LaunchChevron (default, also for "") or LaunchGGL.
	Launch Launch
	// SourcePath is the path named in the generated-file marker; empty means
	// the name passed to Translate.
	SourcePath string
	// Wave is the wavefront strategy; "" means WaveAuto.
	Wave Wave
	// Table holds the mappings; nil means hipmap.Default().
	Table *hipmap.Table
	// LocalIncludes lists #include paths, as written in the file, that
	// resolve to files of the project (see LocalIncludes). They are never
	// taken for CUDA headers, whatever their names: a project may well have
	// its own "cuda_utils.h".
	LocalIncludes []string
	// IncludesResolved says that LocalIncludes lists every include the
	// project holds (the caller looked each up): a quoted include that is
	// neither there nor a header the tables know was not found, and is
	// reported (include-not-found).
	IncludesResolved bool
	// MissingLibraries names the ROCm libraries (Libraries) that the
	// installation the output is for lacks, sorted: an include of one of
	// their headers is reported (missing-library). Empty when unknown.
	MissingLibraries []string
	// IncludedMacros tells, by name, what the project headers the file
	// includes (and those they include) define of macros it tests with
	// #ifdef or defined (see Stats.MacrosAsked and HeaderMacros): a block
	// under such a test of a macro they define only in blocks hipcc never
	// compiles is never compiled for AMD GPUs either.
	IncludedMacros map[string]MacroDef
	// HIPDefines are the definitions (NAME or NAME=value) that every HIP
	// compile of the output has (the manifest's rocm.defines, translate
	// -D), one per name, sorted: the project's own tests of them select
	// its HIP code, as tests of __HIP_PLATFORM_AMD__ do, and what they keep
	// from HIP builds (the #else of "#ifdef USE_AMD_ROCM") is never
	// compiled for AMD GPUs. A name alone is 1 in #if, as -D makes it.
	HIPDefines []string
}

// MacroDef is what project headers say of a macro.
type MacroDef struct {
	// Live is true when one of them defines it outside every block hipcc
	// never compiles.
	Live bool
	// Where is otherwise its first definition: "common.cuh, line 279".
	Where string
}

// MarkerPrefix starts the first line of every translated file.
const MarkerPrefix = "// Code generated by hipgen from "

// MarkerLine returns the generated-file marker for a translation of src.
func MarkerLine(src string) string {
	return MarkerPrefix + src + ". DO NOT EDIT.\n"
}

// Translate rewrites one CUDA file (its slash path relative to the project
// root is name, used in diagnostics and to tell sources from headers) into
// HIP. It never fails: what it cannot port is reported in diags, sorted.
// Translating the output again gives the same bytes.
func Translate(name string, src []byte, opts Options) (out []byte, diags []diag.Diagnostic) {
	out, diags, _ = TranslateStats(name, src, opts)
	return out, diags
}

// Stats counts what one translation did, for 'hipgen translate --stats'.
type Stats struct {
	// Mapped counts rewritten identifiers and headers per mapping family.
	Mapped map[string]int
	// MacrosAsked lists, sorted, the macros that the file tests with
	// #ifdef or defined around code it reports a warning or error for, and
	// that neither it nor Options.IncludedMacros defines: a caller that
	// knows the project's headers looks them up (HeaderMacros) and
	// translates again with what they define.
	MacrosAsked []string
}

// TranslateStats is Translate that also returns counts.
func TranslateStats(name string, src []byte, opts Options) ([]byte, []diag.Diagnostic, Stats) {
	return Parse(name, src).Translate(opts)
}

// Unit is one file lexed once, for callers that need its #include lines
// before translating it (hipgen translate resolves them against the
// project to fill Options.LocalIncludes) without lexing it twice.
type Unit struct {
	name     string
	src      []byte
	code     lex.Code
	includes []Include
	done     bool
	// asked is the translator of a translation that asked about
	// macros, kept for Reconsider.
	asked *translator
	onAsk *askHook
	bom   bool // src followed a UTF-8 byte order mark, which the output keeps first
}

// utf8BOM is the byte order mark some editors put first in a UTF-8 file.
const utf8BOM = "\uFEFF"

// cutBOM returns src without a leading UTF-8 byte order mark, and whether
// it had one. The mark is no text of the file: left in, it would be lexed
// as an identifier glued to what follows (so that a #include on the first
// line was no directive), and the marker line written before it would
// leave it in the middle of the output, where compilers reject it.
func cutBOM(src []byte) ([]byte, bool) {
	if bytes.HasPrefix(src, []byte(utf8BOM)) {
		return src[len(utf8BOM):], true
	}
	return src, false
}

// OnAsk has f called, once and from any goroutine, as soon as the walk of
// the unit's translation first asks about a macro (see
// Stats.MacrosAsked), before it ends: a caller that will look the macros
// up in the project headers (HeaderMacros.Settle) can start reading them
// meanwhile. Call it before translating.
func (u *Unit) OnAsk(f func()) { u.onAsk = &askHook{f: f} }

// askHook calls f once, on the first fire; a nil *askHook does nothing.
type askHook struct {
	once sync.Once
	f    func()
}

func (h *askHook) fire() {
	if h != nil {
		h.once.Do(h.f)
	}
}

// Parse lexes src, the file at slash path name.
func Parse(name string, src []byte) *Unit {
	src, bom := cutBOM(src)
	u := &Unit{name: name, src: src, bom: bom}
	u.code = scan(src)
	u.includes = includesAt(src, u.code.Tokens, u.code.Includes)
	return u
}

// Includes lists the unit's #include lines, as Includes does.
func (u *Unit) Includes() []Include { return u.includes }

// Translate is TranslateStats on the unit. A Unit translates once: its
// token buffer is recycled afterwards, and a second call panics.
func (u *Unit) Translate(opts Options) ([]byte, []diag.Diagnostic, Stats) {
	return u.TranslateInto(nil, opts)
}

// TranslateInto is Translate writing the output into buf's storage when
// it is big enough (a caller translating many files reuses one buffer
// instead of touching fresh memory for each output).
func (u *Unit) TranslateInto(buf []byte, opts Options) ([]byte, []diag.Diagnostic, Stats) {
	if u.done {
		panic("sources: Unit.Translate called twice")
	}
	u.done = true
	t := newTranslator(u.name, u.src, u.code, opts)
	t.onAsk, t.bom = u.onAsk, u.bom
	u.code = lex.Code{}
	t.walk()
	out := t.assemble(buf)
	diags, st := t.findings()
	if len(st.MacrosAsked) > 0 {
		u.asked = t // for Reconsider, which releases it
	} else {
		t.release()
	}
	return out, diags, st
}

// Reconsider walks the unit again after a translation that asked about
// macros (Stats.MacrosAsked), with opts, which differ from that
// translation's in IncludedMacros only, and returns the diagnostics and
// counts that a translation with opts gives: the output would be the same
// bytes (what headers define decides which findings are in blocks hipcc
// never compiles, not what is rewritten). It panics unless the last
// translation asked.
func (u *Unit) Reconsider(opts Options) ([]diag.Diagnostic, Stats) {
	if u.asked == nil {
		panic("sources: Unit.Reconsider without a translation that asked about macros")
	}
	t := u.asked.rewalker(opts)
	u.asked = nil
	t.walkIn(rewalkSplitMin)
	diags, st := t.findings()
	t.release()
	return diags, st
}

// dropAsked gives back the buffers a translation that asked about macros
// kept for Reconsider, when it is not needed.
func (u *Unit) dropAsked() {
	if u.asked != nil {
		u.asked.release()
		u.asked = nil
	}
}

// walk walks the tokens, in parts on several cores for a large file.
func (t *translator) walk() {
	t.walkIn(splitMin)
}

// walkIn is walk in parts of at least least source bytes.
func (t *translator) walkIn(least int) {
	if n := splitParts(len(t.src), least); n > 1 {
		t.runSplit(n)
	} else {
		t.run()
	}
}

// findings returns what the walk found to report, sorted, and the counts.
func (t *translator) findings() ([]diag.Diagnostic, Stats) {
	// Repeats of a once-per-file diagnostic go first, so that a
	// hipgen:ignore at its first place silences it for the file.
	diag.Sort(t.diags)
	t.diags = t.mixedWarps(dropRepeats(t.diags))
	diags := t.filterSuppressed()
	slices.Sort(t.asked)
	return diags, Stats{Mapped: t.mapped, MacrosAsked: slices.Compact(t.asked)}
}

// OutputPath returns where the translation of srcPath goes inside the
// output tree: sources get the .hip extension, headers keep their names so
// that #include lines between project files stay valid.
func OutputPath(srcPath string) string {
	ext := path.Ext(srcPath)
	if ext == ".cu" {
		return strings.TrimSuffix(srcPath, ext) + ".hip"
	}
	return srcPath
}

// IsSource reports whether p is a translation unit (as opposed to a header).
func IsSource(p string) bool {
	switch path.Ext(p) {
	case ".cu", ".cpp", ".cc", ".cxx", ".c", ".hip":
		return true
	}
	return false
}
