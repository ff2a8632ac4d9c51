package sources

import (
	"bytes"
	"fmt"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/hipgen/hipgen/diag"
	"github.com/hipgen/hipgen/sources/hipmap"
	"github.com/hipgen/hipgen/sources/lex"
)

// RuntimeHeader is the one HIP header every translated source needs.
const RuntimeHeader = "hip/hip_runtime.h"

// Include is one #include line.
type Include struct {
	Path   string
	Quoted bool // "path" rather than <path>
	Line   int  // 1-based
}

// Includes lists the #include lines of src in order. Includes inside
// comments and string literals are not seen; conditional ones are (the
// preprocessor is not evaluated).
func Includes(src []byte) []Include {
	src, _ = cutBOM(src)
	c := scan(src)
	out := includesAt(src, c.Tokens, c.Includes)
	putCode(c)
	return out
}

// includesAt turns the header-name tokens lex.Scan found into
// Includes.
func includesAt(src []byte, toks []lex.Token, at []int32) []Include {
	var out []Include
	line, off := 1, 0
	for _, i := range at {
		tk := toks[i]
		line += bytes.Count(src[off:tk.Start], []byte{'\n'})
		off = int(tk.Start)
		if p, quoted, ok := includePath(src, tk); ok {
			out = append(out, Include{Path: p, Quoted: quoted, Line: line})
		}
	}
	return out
}

// includePath extracts the path of a header-name or string token.
func includePath(src []byte, tk lex.Token) (p string, quoted, ok bool) {
	b := src[tk.Start:tk.End]
	switch {
	case tk.Kind == lex.HeaderName && len(b) >= 2 && b[len(b)-1] == '>':
		return string(b[1 : len(b)-1]), false, true
	case tk.Kind == lex.String && len(b) >= 2 && b[0] == '"' && b[len(b)-1] == '"':
		return string(b[1 : len(b)-1]), true, true
	}
	return "", false, false
}

// IncludeClosure returns the project-local headers that file reaches
// through #include, directly or not: slash paths relative to the project
// root, sorted, without file itself. read reads a root-relative slash path.
// A quoted include is looked up next to the including file first, then in
// includeDirs; an angled one only in includeDirs. Includes that resolve to
// nothing in the project (system and CUDA headers) are ignored, as are
// paths that would leave the root.
func IncludeClosure(read func(path string) ([]byte, error), file string, includeDirs []string) ([]string, error) {
	file = path.Clean(file)
	src, err := read(file)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	seen := map[string]bool{file: true}
	queue := []string{file}
	contents := map[string][]byte{file: src}
	var out []string
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		for _, inc := range Includes(contents[cur]) {
			c, data := resolveInclude(read, cur, inc, includeDirs)
			if c == "" || seen[c] {
				continue
			}
			seen[c] = true
			contents[c] = data
			out = append(out, c)
			queue = append(queue, c)
		}
	}
	sort.Strings(out)
	return out, nil
}

func (t *translator) isLocal(p string) bool {
	for _, l := range t.opts.LocalIncludes {
		if l == p {
			return true
		}
	}
	return false
}

// LocalIncludes returns the #include paths of src (the file at the slash
// path file) that resolve to project files, by the rules of
// IncludeClosure, sorted and without duplicates: what Options.LocalIncludes
// wants.
func LocalIncludes(read func(path string) ([]byte, error), file string, src []byte, includeDirs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, inc := range Includes(src) {
		if seen[inc.Path] {
			continue
		}
		if c, _ := resolveInclude(read, file, inc, includeDirs); c != "" {
			seen[inc.Path] = true
			out = append(out, inc.Path)
		}
	}
	sort.Strings(out)
	return out
}

// resolveInclude finds the project file an include names, with its
// contents.
func resolveInclude(read func(path string) ([]byte, error), from string, inc Include, includeDirs []string) (string, []byte) {
	for _, c := range IncludeCandidates(from, inc, includeDirs) {
		if data, err := read(c); err == nil {
			return c, data
		}
	}
	return "", nil
}

// IncludeCandidates lists, in lookup order, the root-relative slash paths
// where the project file an include of the file from may be: next to from
// for a quoted include, then in each include directory. Paths that would
// leave the root are left out.
func IncludeCandidates(from string, inc Include, includeDirs []string) []string {
	var cands []string
	add := func(c string) {
		if c != ".." && !strings.HasPrefix(c, "../") && !path.IsAbs(c) {
			cands = append(cands, c)
		}
	}
	if inc.Quoted {
		add(path.Join(path.Dir(from), inc.Path))
	}
	for _, d := range includeDirs {
		add(path.Join(d, inc.Path))
	}
	return cands
}

// include rewrites the #include directive whose '#' is at k.
func (t *translator) include(k int) {
	t.includeEnds = append(t.includeEnds, t.lineEnd(int(t.tok(k).Start)))
	pk := k + 2
	tk := t.tok(pk)
	if !tk.Directive {
		return
	}
	p, quoted, ok := includePath(t.src, tk)
	if !ok {
		return
	}
	if p == RuntimeHeader {
		t.runtimeInclude(k)
		return
	}
	if p == "math.h" && !quoted {
		t.mathIncluded = true
	}
	if t.isLocal(p) {
		if path.Ext(p) == ".cu" {
			t.replace(pk, delimit(OutputPath(p), quoted))
		}
		return
	}
	if std, ok := strings.CutPrefix(p, "cuda/std/"); ok && !quoted && stdHeaders()[std] {
		t.replace(pk, delimit(std, false))
		t.report(pk, diag.Note, "libcuxx", "#include <"+p+"> became <"+std+">: HIP has no libcu++")
		return
	}
	if isCUTLASS(p) {
		t.report(pk, diag.Error, "cutlass", "#include <"+p+">: CUTLASS and CuTe have no HIP port; port the kernel by hand or use a ROCm library (composable_kernel, rocWMMA, hipBLASLt)")
		return
	}
	if e, ok := t.tbl.Header(p, t.ver); ok {
		if e.Family == pytorchFamily {
			t.pytorchHeader(pk, e.HIP, quoted)
			t.count(e)
			return
		}
		if !e.Available(t.ver) {
			t.unavailableHeader(k, pk, p, e.Note, e.MinROCm)
			return
		}
		if e.HIP == RuntimeHeader {
			t.count(e)
			if len(t.runtimeIncludes) > 0 {
				t.dropDirective(k)
				return
			}
			t.runtimeIncludes = append(t.runtimeIncludes, k)
		}
		hip := p
		if e.Renames() {
			hip = e.HIP
			t.replace(pk, delimit(e.HIP, quoted))
			if e.HIP != RuntimeHeader {
				t.count(e)
			}
		}
		t.missingLibrary(pk, hip)
		// HIP's own device headers (cooperative groups, fp16, ...) need
		// hip_runtime.h before them, which CUDA's did not.
		if needsRuntimeFirst(e.HIP) {
			t.needRuntime = true
			if t.firstHIPHeader < 0 {
				t.firstHIPHeader = k
			}
		}
		t.noteDeprecated(pk, e)
		return
	}
	if hip, ok := pytorchHeaderPath(p); ok {
		if path.Ext(hip) == ".cu" {
			// As PyTorch's ROCm build names its .cu files, and as the
			// rule below reads the mapped path on the next run.
			hip = OutputPath(hip)
		}
		t.pytorchHeader(pk, hip, quoted)
		t.count(hipmap.Entry{Family: pytorchFamily})
		return
	}
	if path.Ext(p) == ".cu" && (quoted || !isCUDAHeader(p)) {
		// A CUDA source is the project's, however it is included
		// (Rodinia's mummergpu: #include <common.cu>, found through
		// -I.), unless its path is NVIDIA's (<cub/...>): its
		// translation has the .hip name.
		t.replace(pk, delimit(OutputPath(p), quoted))
		return
	}
	// An unknown quoted include is most likely a project file; an unknown
	// angled one with a CUDA name cannot be anything but NVIDIA's.
	if !quoted && isCUDAHeader(p) {
		t.unavailableHeader(k, pk, p, "", Version{})
	}
	if quoted && t.opts.IncludesResolved {
		t.includeNotFound(pk, p)
	}
}

func (t *translator) runtimeInclude(k int) {
	if len(t.runtimeIncludes) > 0 {
		t.dropDirective(k)
		return
	}
	t.runtimeIncludes = append(t.runtimeIncludes, k)
}

// dropDirective removes a duplicate include but keeps its newline, so line
// numbers stay those of the CUDA source.
func (t *translator) dropDirective(k int) {
	end := t.endOfDirective(k)
	t.edits = append(t.edits, edit{int(t.tok(k).Start), int(t.tok(end - 1).End), ""})
}

// unavailableHeader reports a CUDA header with no HIP equivalent and
// removes the include: leaving it would let the HIP compiler find NVIDIA's
// copy (Debian installs them in /usr/include) and compile against the wrong
// headers by accident. A comment takes its place. Code that uses what the
// header declared fails to compile, and is reported as unsupported-api;
// code that does not (often the header is only used under
// "#if __CUDA_ARCH__ >= 890", which hipcc never compiles) is fine.
func (t *translator) unavailableHeader(k, pk int, p, note string, minROCm Version) {
	msg := "#include <" + p + ">: no HIP equivalent in ROCm " + t.ver.String()
	if !minROCm.IsZero() && t.ver.Less(minROCm) {
		msg = "#include <" + p + ">: needs ROCm " + minROCm.String() + " or later; translating for ROCm " + t.ver.String()
	}
	if note != "" {
		msg += " (" + note + ")"
	}
	t.report(pk, diag.Warning, "unsupported-header", msg+"; the include was removed so that no CUDA header can leak into the HIP build")
	end := t.endOfDirective(k)
	// A block comment, so that whatever follows on the line stays code.
	t.edits = append(t.edits, edit{int(t.tok(k).Start), int(t.tok(end - 1).End),
		removedIncludeMark + strings.ReplaceAll(p, "*/", "* /") + ">, which has no HIP equivalent in ROCm " + t.ver.String() + " */"})
}

// includeNotFound reports the quoted include p at pk, which the project
// does not hold where the caller looked (beside the file, in the include
// directories): it is left as written, so a build that finds the CUDA
// original compiles it untranslated. A CUDA header (.cuh, .cu) surely
// needs translating; another may be a system or third-party header.
func (t *translator) includeNotFound(pk int, p string) {
	if cHeaders()[p] || stdHeaders()[p] {
		return // a system header written with quotes: the compiler finds it there
	}
	sev := diag.Note
	if ext := path.Ext(p); ext == ".cuh" || ext == ".cu" {
		sev = diag.Warning
	}
	t.report(pk, sev, "include-not-found", "\""+p+"\" is not in the project beside the file or in an include directory (-I, the manifest's): left as written and not translated; if it is the project's, add its directory with -I")
}

// removedIncludeMark starts the comment that stands in for a removed
// include (unavailableHeader); removedInclude finds it again in an output.
const removedIncludeMark = "/* hipgen: removed #include <"

func delimit(p string, quoted bool) string {
	if quoted {
		return `"` + p + `"`
	}
	return "<" + p + ">"
}

func isCUTLASS(p string) bool {
	return strings.HasPrefix(p, "cutlass/") || strings.HasPrefix(p, "cute/")
}

// cudaHeaderPrefixes name headers that only NVIDIA's toolkit provides.
var cudaHeaderPrefixes = []string{
	"cuda", "cublas", "curand", "cufft", "cusparse", "cusolver", "cudnn", "cutensor",
	"nvrtc", "nvToolsExt", "nvtx3/", "nvml", "npp", "nvjpeg", "nvshmem", "cub/", "thrust/",
	"cooperative_groups", "crt/", "sm_", "device_launch_parameters", "device_functions",
	"vector_types", "vector_functions", "driver_types", "driver_functions", "host_defines",
	"texture_fetch_functions", "surface_functions", "mma.h", "math_constants", "nv/",
	"cuComplex", "library_types",
}

// GPUHeader reports whether p, included with <> or "" and not a file of
// the project, is a header of NVIDIA's toolkit or of PyTorch's CUDA API
// (ATen/cuda, c10/cuda): a C++ source that reaches one uses CUDA.
func GPUHeader(p string) bool {
	_, torch := pytorchHeaderPath(p)
	return torch || isCUDAHeader(p)
}

// isCUDAHeader reports whether p names a header from NVIDIA's toolkit.
func isCUDAHeader(p string) bool {
	if strings.HasPrefix(p, "thrust/system/hip/") {
		return false // rocThrust's own, what thrust/system/cuda/ became
	}
	for _, pre := range cudaHeaderPrefixes {
		if strings.HasPrefix(p, pre) {
			return true
		}
	}
	return false
}

// findInsertPoint returns where #include <hip/hip_runtime.h> goes when the
// file lacks it: after #pragma once or the include guard if the file opens
// with one, else before the first line of code, after leading comments.
func (t *translator) findInsertPoint() int {
	if len(t.toks) == 0 {
		// No code at all; the end may lie inside an unterminated comment,
		// so the include goes first (after an earlier marker line).
		if t.oldMarker[0] == 0 {
			return t.oldMarker[1]
		}
		return 0
	}
	if t.is(0, "#") && t.tok(1).Directive {
		switch {
		case t.is(1, "pragma") && t.is(2, "once") && t.tok(2).Directive:
			return t.lineEnd(int(t.tok(2).Start))
		case t.is(1, "ifndef") && t.tok(2).Kind == lex.Ident && t.is(3, "#") && t.isLineStart(3) && t.is(4, "define") && string(t.text(5)) == string(t.text(2)):
			return t.lineEnd(int(t.tok(5).Start))
		case t.is(1, "if") && t.is(2, "!") && t.is(3, "defined"):
			// #if !defined(GUARD) / #define GUARD
			j := 4
			if t.is(j, "(") {
				j++
			}
			g := j
			for j < len(t.toks) && t.tok(j).Directive && !t.is(j, "#") {
				j++
			}
			if t.is(j, "#") && t.isLineStart(j) && t.is(j+1, "define") && t.tok(g).Kind == lex.Ident && string(t.text(j+2)) == string(t.text(g)) {
				return t.lineEnd(int(t.tok(j + 2).Start))
			}
		}
	}
	off := int(t.tok(0).Start)
	ls := off
	for ls > 0 && (t.src[ls-1] == ' ' || t.src[ls-1] == '\t') {
		ls--
	}
	if ls != 0 && t.src[ls-1] != '\n' {
		return off
	}
	// Line comments attached to the first line of code (a hipgen:ignore,
	// a doc comment) stay attached: insert above them.
	for ls > 0 {
		prev := bytes.LastIndexByte(t.src[:ls-1], '\n') + 1
		indent := len(t.src[prev:ls-1]) - len(bytes.TrimLeft(t.src[prev:ls-1], " \t"))
		if prev < t.oldMarker[1] || !t.lineCommentAt(prev+indent) {
			break
		}
		ls = prev
	}
	return ls
}

// lineCommentAt reports whether a // comment starts at byte offset off
// (and not, say, the end of a block comment that reads "//*/").
func (t *translator) lineCommentAt(off int) bool {
	return startingAt(t.comments, off) >= 0 && bytes.HasPrefix(t.src[off:], []byte("//"))
}

// needsRuntimeFirst reports whether a HIP header must come after
// hip_runtime.h: the device headers (cooperative groups, half, bfloat16
// and FP8 types) use its macros without including it.
func needsRuntimeFirst(p string) bool {
	if !strings.HasPrefix(p, "hip/") {
		return false
	}
	for _, s := range []string{"cooperative_groups", "fp16", "bf16", "bfloat16", "fp8"} {
		if strings.Contains(p, s) {
			return true
		}
	}
	return false
}

// stdHeaders are the standard headers libcu++ mirrors as <cuda/std/...>.
var stdHeaders = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"array": true, "atomic": true, "bit": true, "cassert": true, "cfloat": true, "chrono": true,
		"climits": true, "cmath": true, "complex": true, "concepts": true, "cstddef": true,
		"cstdint": true, "cstdlib": true, "functional": true, "initializer_list": true,
		"iterator": true, "limits": true, "numeric": true, "optional": true, "ratio": true,
		"span": true, "tuple": true, "type_traits": true, "utility": true, "variant": true,
	}
})

// hasInclude handles __has_include(HEADER) at k in an #if or #elif. A CUDA
// header that translation renames is renamed here too. One whose includes
// translation removes (no HIP equivalent in the target ROCm) makes the
// test 0: the header is gone from the HIP build, but a CUDA copy may still
// be on the include path (Debian's toolkit puts nvml.h in /usr/include),
// and the test would then enable code for a header that is never included.
func (t *translator) hasInclude(k int) {
	if !t.tok(k).Directive || !t.is(k+1, "(") {
		return
	}
	if w := t.directiveWord(k); w != "if" && w != "elif" {
		return // only a condition tests it
	}
	close := t.matching(k + 1)
	if close < 0 || close == k+2 || close >= t.endOfDirective(k) {
		return // empty, or closed on a later line: not a test of this #if
	}
	first, last := t.tok(k+2), t.tok(close-1)
	text := string(t.src[first.Start:last.End])
	if len(text) < 2 {
		return
	}
	var p string
	quoted := false
	switch {
	case text[0] == '<' && text[len(text)-1] == '>':
		p = text[1 : len(text)-1]
		for j := k + 2; j < close; j++ {
			if kind := t.tok(j).Kind; kind == lex.String || kind == lex.Char {
				return // no header name: a rewrite would drop the literal
			}
		}
	case text[0] == '"' && text[len(text)-1] == '"' && close == k+3:
		p, quoted = text[1:len(text)-1], true
	default:
		return
	}
	if t.isLocal(p) || p == RuntimeHeader {
		return
	}
	e, ok := t.tbl.Header(p, t.ver)
	switch {
	case ok && e.Available(t.ver):
		if e.Renames() {
			t.edits = append(t.edits, edit{int(first.Start), int(last.End), delimit(e.HIP, quoted)})
		}
	case ok || !quoted && isCUDAHeader(p):
		zero := "0"
		if end := int(t.tok(close).End); end < len(t.src) && !isSpace(t.src[end]) {
			zero = "0 " // "0'x'" would read as one number with a digit separator
		}
		t.edits = append(t.edits, edit{int(t.tok(k).Start), int(t.tok(close).End), zero})
		t.report(k, diag.Note, "unsupported-header", "__has_include("+text+") became 0: translation removes the includes of "+text+", which has no HIP equivalent in ROCm "+t.ver.String()+", and a CUDA copy on the include path would make the test true for a header the HIP build never sees")
	}
}

// cHeaders are the C standard library's headers and the POSIX ones CUDA
// programs include most, which a quoted include also finds on the system
// include path ('#include "assert.h"' in llm.c).
var cHeaders = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"assert.h": true, "complex.h": true, "ctype.h": true, "errno.h": true, "fenv.h": true, "float.h": true,
		"inttypes.h": true, "iso646.h": true, "limits.h": true, "locale.h": true, "math.h": true, "setjmp.h": true,
		"signal.h": true, "stdalign.h": true, "stdarg.h": true, "stdatomic.h": true, "stdbool.h": true, "stddef.h": true,
		"stdint.h": true, "stdio.h": true, "stdlib.h": true, "stdnoreturn.h": true, "string.h": true, "tgmath.h": true,
		"threads.h": true, "time.h": true, "uchar.h": true, "wchar.h": true, "wctype.h": true,
		"dirent.h": true, "dlfcn.h": true, "fcntl.h": true, "pthread.h": true, "unistd.h": true, "strings.h": true,
		"sys/mman.h": true, "sys/stat.h": true, "sys/time.h": true, "sys/types.h": true, "sys/wait.h": true,
	}
})

// isSpace reports whether c is white space between tokens.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}
