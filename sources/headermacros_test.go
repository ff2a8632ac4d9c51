package sources

import (
	"bytes"
	"errors"
	"io/fs"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/hipgen/hipgen/diag"
)

// readMap reads project files from a map, as a project root would.
func readMap(files map[string]string) func(string) ([]byte, error) {
	return func(p string) ([]byte, error) {
		if s, ok := files[p]; ok {
			return []byte(s), nil
		}
		return nil, fs.ErrNotExist
	}
}

// ggml's pattern: a common header defines the tensor-core macros for
// NVIDIA architectures only, and other headers test them around inline
// PTX.
const commonHeader = `#pragma once
#if !defined(GGML_USE_HIP) && __CUDA_ARCH__ >= 750
#define TURING_MMA_AVAILABLE
#endif
#define LIVE_EVERYWHERE
`

const mmaHeader = `#pragma once
#include "common.cuh"
__device__ void load(int *x, const int *p) {
#ifdef TURING_MMA_AVAILABLE
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.b16 {%0, %1}, [%2];" : "=r"(x[0]), "=r"(x[1]) : "l"(p));
#else
  x[0] = p[0];
#endif
}
`

func severities(ds []diag.Diagnostic, check string) []string {
	var out []string
	for _, d := range ds {
		if d.Check == check {
			out = append(out, d.Severity.String())
		}
	}
	return out
}

func TestHeaderMacrosDeadInHeader(t *testing.T) {
	files := map[string]string{"common.cuh": commonHeader, "mma.cuh": mmaHeader}
	h := NewHeaderMacros(readMap(files), nil, Options{})
	// Alone, the file cannot tell: the asm is an error, and the
	// translation asks about the macro around it.
	_, ds, st := TranslateStats("mma.cuh", []byte(mmaHeader), Options{})
	if got := severities(ds, "inline-asm"); !slices.Equal(got, []string{"error"}) {
		t.Fatalf("without the headers: inline-asm %v, want one error", got)
	}
	if !slices.Equal(st.MacrosAsked, []string{"TURING_MMA_AVAILABLE"}) {
		t.Fatalf("MacrosAsked = %q, want TURING_MMA_AVAILABLE", st.MacrosAsked)
	}
	out, ds, st, used := h.TranslateIn("mma.cuh", []byte(mmaHeader), Options{})
	if got := severities(ds, "inline-asm"); !slices.Equal(got, []string{"note"}) {
		t.Errorf("with the headers: inline-asm %v, want one note; diagnostics:\n%s", got, diag.AppendText(nil, ds))
	}
	want := "TURING_MMA_AVAILABLE is defined only in a block hipcc never compiles (common.cuh, line 3)"
	if !strings.Contains(string(diag.AppendText(nil, ds)), want) {
		t.Errorf("diagnostics lack %q:\n%s", want, diag.AppendText(nil, ds))
	}
	if d := used.IncludedMacros["TURING_MMA_AVAILABLE"]; d.Live || d.Where != "common.cuh, line 3" {
		t.Errorf("IncludedMacros = %+v", used.IncludedMacros)
	}
	if !slices.Equal(st.MacrosAsked, []string{"TURING_MMA_AVAILABLE"}) {
		t.Errorf("MacrosAsked after the second translation = %q, want the first's", st.MacrosAsked)
	}
	if CacheKey("mma.cuh", []byte(mmaHeader), used) == CacheKey("mma.cuh", []byte(mmaHeader), Options{}) {
		t.Error("the cache key ignores IncludedMacros")
	}
	// The output is what a translation without the headers gives (only
	// diagnostics differ), and translating it again changes nothing.
	plain, _ := Translate("mma.cuh", []byte(mmaHeader), Options{})
	if string(out) != string(plain) {
		t.Errorf("output differs from a plain translation:\n%s", out)
	}
	again, _, _, _ := h.TranslateIn("mma.cuh", out, Options{})
	if string(again) != string(out) {
		t.Errorf("not idempotent:\n%s", again)
	}
}

func TestHeaderMacrosLiveSomewhere(t *testing.T) {
	for name, files := range map[string]map[string]string{
		// Another header the file reaches defines it where hipcc
		// compiles it.
		"live in another header": {"common.cuh": commonHeader, "other.cuh": "#define TURING_MMA_AVAILABLE 1\n",
			"mma.cuh": strings.Replace(mmaHeader, `#include "common.cuh"`, "#include \"common.cuh\"\n#include \"other.cuh\"", 1)},
		// The file defines it itself.
		"live in the file": {"common.cuh": commonHeader,
			"mma.cuh": strings.Replace(mmaHeader, `#include "common.cuh"`, "#include \"common.cuh\"\n#define TURING_MMA_AVAILABLE", 1)},
		// No header defines it: it may come from the command line.
		"undefined": {"common.cuh": "#pragma once\n", "mma.cuh": mmaHeader},
		// The header that defines it is not included.
		"not included": {"common.cuh": commonHeader, "mma.cuh": strings.Replace(mmaHeader, `#include "common.cuh"`, "", 1)},
	} {
		h := NewHeaderMacros(readMap(files), nil, Options{})
		_, ds, _, used := h.TranslateIn("mma.cuh", []byte(files["mma.cuh"]), Options{})
		if got := severities(ds, "inline-asm"); !slices.Equal(got, []string{"error"}) {
			t.Errorf("%s: inline-asm %v, want one error", name, got)
		}
		if used.IncludedMacros != nil {
			t.Errorf("%s: translated with IncludedMacros %v", name, used.IncludedMacros)
		}
	}
}

func TestHeaderMacrosIncludeChains(t *testing.T) {
	files := map[string]string{
		// The definition is two includes away, through an include
		// directory, and the headers include each other.
		"inc/arch.h":  "#pragma once\n#include \"top.h\"\n#if __CUDA_ARCH__ >= 800\n#define CP_ASYNC_AVAILABLE\n#endif\n",
		"inc/top.h":   "#pragma once\n#include <arch.h>\n",
		"src/copy.cu": "#include <top.h>\n__global__ void k(int *p) {\n#if defined(CP_ASYNC_AVAILABLE) && !defined(NO_ASYNC)\n  asm volatile(\"nanosleep.u32 100;\");\n#endif\n}\n",
	}
	h := NewHeaderMacros(readMap(files), []string{"inc"}, Options{})
	_, ds, st, _ := h.TranslateIn("src/copy.cu", []byte(files["src/copy.cu"]), Options{})
	if got := severities(ds, "inline-asm"); !slices.Equal(got, []string{"note"}) {
		t.Errorf("inline-asm %v, want one note:\n%s", got, diag.AppendText(nil, ds))
	}
	if !slices.Equal(st.MacrosAsked, []string{"CP_ASYNC_AVAILABLE"}) { // !defined(NO_ASYNC) is no question
		t.Errorf("MacrosAsked = %q, want CP_ASYNC_AVAILABLE", st.MacrosAsked)
	}
	got := h.Lookup("src/copy.cu", Includes([]byte(files["src/copy.cu"])), []string{"CP_ASYNC_AVAILABLE", "UNKNOWN"})
	if len(got) != 1 || got["CP_ASYNC_AVAILABLE"].Where != "inc/arch.h, line 4" {
		t.Errorf("Lookup = %+v", got)
	}
}

func TestHeaderMacrosAskOnlyAroundFindings(t *testing.T) {
	// A test of an unknown macro around code with nothing to report, a
	// negative test, a test in a block already dead and a test of a macro
	// that selects the HIP build ask nothing; a test around PTX does.
	src := "#ifdef SOME_OPTION\n__global__ void k(int *p) { p[0] = 1; }\n#endif\n" +
		"#ifndef OTHER_OPTION\n__device__ void f() { asm volatile(\"nanosleep.u32 100;\"); }\n#endif\n" +
		"#if __CUDA_ARCH__ >= 800\n#ifdef THIRD\n__device__ void g() { asm volatile(\"nanosleep.u32 100;\"); }\n#endif\n#endif\n" +
		"#if defined(GGML_USE_HIP)\n__device__ void h() { asm volatile(\"nanosleep.u32 100;\"); }\n#endif\n" +
		"#if defined(FAST_PATH) && !defined(SLOW)\n__device__ void i() { asm volatile(\"nanosleep.u32 100;\"); }\n#endif\n"
	_, ds, st := TranslateStats("k.cu", []byte(src), Options{})
	if got := severities(ds, "inline-asm"); !slices.Equal(got, []string{"error", "note", "error", "error"}) {
		t.Fatalf("inline-asm %v, want error, note, error, error", got)
	}
	if !slices.Equal(st.MacrosAsked, []string{"FAST_PATH"}) {
		t.Errorf("MacrosAsked = %q, want FAST_PATH", st.MacrosAsked)
	}
	h := NewHeaderMacros(func(string) ([]byte, error) { return nil, errors.New("no files") }, nil, Options{})
	if facts := h.Ask("k.cu", Includes([]byte(src)), []string{"X"}); facts != nil {
		t.Errorf("Ask without headers = %v", facts)
	}
}

// TestReconsiderInParts has a file large enough for its second walk to go
// in parts (rewalkSplitMin), with the macro tested in every part: the
// diagnostics are a whole translation's with what the header says, and
// OnAsk fired once, before the translation returned.
func TestReconsiderInParts(t *testing.T) {
	var b strings.Builder
	b.WriteString("#include \"common.cuh\"\n")
	for i := 0; b.Len() < 6*rewalkSplitMin; i++ {
		b.WriteString(strings.ReplaceAll(mmaHeader[strings.Index(mmaHeader, "__device__"):], "load(", "load"+strings.Repeat("x", i%7)+string(rune('a'+i%26))+"_"+strings.Repeat("y", i/26)+"("))
		b.WriteString("__global__ void k(float *p) { p[threadIdx.x] = __shfl_sync(0xffffffff, p[0], 1); }\n")
	}
	src := []byte(b.String())
	files := map[string]string{"common.cuh": commonHeader, "f.cu": string(src)}
	h := NewHeaderMacros(readMap(files), nil, Options{})
	u := Parse("f.cu", src)
	fired := 0
	u.OnAsk(func() { fired++ })
	out, diags, st := u.Translate(Options{})
	if fired != 1 || len(st.MacrosAsked) == 0 {
		t.Fatalf("OnAsk fired %d times, asked %v", fired, st.MacrosAsked)
	}
	diags, _, used := h.Settle(u, diags, st, Options{})
	if used.IncludedMacros == nil {
		t.Fatal("the header's answer was not used")
	}
	if parts := splitParts(len(src), rewalkSplitMin); parts < 2 && runtime.GOMAXPROCS(0) > 1 {
		t.Fatalf("the second walk is in %d part", parts)
	}
	whole, wholeDiags := Translate("f.cu", src, used)
	if !bytes.Equal(whole, out) || !slices.Equal(wholeDiags, diags) {
		t.Fatalf("the second walk differs from a whole translation: %d against %d diagnostics", len(diags), len(wholeDiags))
	}
	if got := severities(diags, "inline-asm"); len(got) == 0 || slices.Contains(got, "error") {
		t.Errorf("inline-asm findings %v, want notes only (the PTX is never compiled for AMD GPUs)", got)
	}
}

func TestHeaderMacrosKeepPTXRewrites(t *testing.T) {
	// A header defines the macro only for NVIDIA GPUs, so the block is
	// never compiled for AMD ones; but that is learnt after the output is
	// made, so the PTX there is rewritten as anywhere, and the
	// diagnostics say so, not that it stayed.
	files := map[string]string{
		"common.cuh": "#pragma once\n#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800\n#define CP_ASYNC_AVAILABLE\n#endif\n",
		"copy.cuh": "#include \"common.cuh\"\n__device__ void cp(unsigned dst, const void* src) {\n#ifdef CP_ASYNC_AVAILABLE\n" +
			"  asm volatile(\"cp.async.cg.shared.global [%0], [%1], 16;\" : : \"r\"(dst), \"l\"(src));\n" +
			"  asm volatile(\"nanosleep.u32 100;\");\n#endif\n}\n",
	}
	h := NewHeaderMacros(readMap(files), nil, Options{})
	out, ds, _, _ := h.TranslateIn("copy.cuh", []byte(files["copy.cuh"]), Options{})
	alone, _ := Translate("copy.cuh", []byte(files["copy.cuh"]), Options{})
	if !bytes.Equal(out, alone) {
		t.Errorf("output depends on the headers:\n%s\n--- alone\n%s", out, alone)
	}
	if !bytes.Contains(out, []byte("hipgen_ptx_cp_async(")) {
		t.Errorf("cp.async not rewritten:\n%s", out)
	}
	text := string(diag.AppendText(nil, ds))
	if !strings.Contains(text, "copy.cuh:4:3: note: inline PTX became hipgen_ptx_code") ||
		!strings.Contains(text, "copy.cuh:5:3: note: inline PTX assembly cannot run on AMD GPUs") {
		t.Errorf("diagnostics:\n%s", text)
	}
}
