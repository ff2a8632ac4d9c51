package sources

import (
	"bytes"
	"path/filepath"
	"slices"
	"testing"

	"github.com/hipgen/hipgen/diag"
	"github.com/hipgen/hipgen/sources/lex"
	"github.com/rogpeppe/go-internal/txtar"
)

// protected returns the comments and string literals a translation must
// copy unchanged, in order: all of them except #include paths, an earlier
// generated-file marker and hipgen's own helper block.
func protected(src []byte) [][]byte {
	src, _ = cutBOM(src) // no text of the file: the translator lexes what follows it
	toks := lex.Tokenize(src, nil)
	var out [][]byte
	inHelpers := false
	inInclude := false
	afterHash := false // the last token other than blanks and comments is a directive's '#'
	for i, tk := range toks {
		text := src[tk.Start:tk.End]
		if tk.Kind == lex.Newline {
			inInclude = false
		}
		if afterHash && tk.Kind == lex.Ident && (string(text) == "include" || string(text) == "include_next" || string(text) == "import") {
			inInclude = true
		}
		if tk.Kind != lex.Space && tk.Kind != lex.Comment {
			afterHash = tk.Directive && tk.Kind == lex.Punct && string(text) == "#"
		}
		switch tk.Kind {
		case lex.Comment:
			switch {
			case i == 0 && bytes.HasPrefix(text, []byte(MarkerPrefix)):
			case string(text) == helperBegin, string(text) == polyfillBegin:
				inHelpers = true
			case string(text) == helperEnd, string(text) == polyfillEnd:
				inHelpers = false
			case !inHelpers:
				out = append(out, text)
			}
		case lex.String, lex.Char:
			if !inHelpers && !inInclude {
				// A suffix glued to the literal is not part of it
				// (gluedSuffix sets a macro there apart).
				out = append(out, text[:lex.LiteralEnd(text)])
			}
		}
	}
	return out
}

// isSubsequence reports whether every element of a appears in b, in order.
func isSubsequence(a, b [][]byte) bool {
	j := 0
	for _, x := range a {
		for j < len(b) && !bytes.Equal(b[j], x) {
			j++
		}
		if j == len(b) {
			return false
		}
		j++
	}
	return true
}

// FuzzTranslate translates anything, chevron or ggl launches, auto or
// wide waves, and for inputs whose last byte is odd with the project
// switches of rocm.defines: no panic, the input untouched, idempotent,
// comments and strings unchanged.
func FuzzTranslate(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	for _, p := range files {
		if a, err := txtar.ParseFile(p); err == nil && len(a.Files) > 0 {
			f.Add(a.Files[0].Data, false, false)
		}
	}
	f.Add([]byte("k<<<1, 2>>>(x); // c\n"), true, false)
	f.Add([]byte("__shfl_sync(0xffffffff /* m */, v, 1)"), true, true)
	f.Fuzz(func(t *testing.T, src []byte, ggl, wide bool) {
		opts := Options{}
		if ggl {
			opts.Launch = LaunchGGL
		}
		if wide {
			opts.Wave = WaveWide
		}
		if len(src) > 0 && src[len(src)-1]&1 == 1 {
			// Half the inputs: HIP builds define the project's switches
			// (rocm.defines), whose tests then select HIP's branches.
			opts.HIPDefines = []string{"GGML_USE_HIP", "USE_AMD_ROCM=1", "USE_ROCM"}
		}
		orig := append([]byte(nil), src...)
		out, _ := Translate("f.cu", src, opts)
		if !bytes.Equal(src, orig) {
			t.Fatal("Translate modified its input")
		}
		again, _ := Translate("f.cu", out, opts)
		if !bytes.Equal(again, out) {
			t.Fatalf("not idempotent\n--- first\n%s\n--- second\n%s", out, again)
		}
		if !isSubsequence(protected(src), protected(out)) {
			t.Fatalf("a comment or string literal changed\n--- input\n%q\n--- output\n%q", src, out)
		}
	})
}

// FuzzHeaderMacros translates a file that includes a header, both from the
// fuzzer, with what the header says of the macros the file asks about
// (HeaderMacros): no panic, idempotent, comments and strings unchanged,
// and a split walk with those options gives the sequential walk's result.
func FuzzHeaderMacros(f *testing.F) {
	f.Add([]byte(commonHeader), []byte(mmaHeader), uint8(2))
	f.Add([]byte("#if __CUDA_ARCH__ >= 800\n#define A\n#endif\n#ifdef A\n#define B\n#endif\n"),
		[]byte("#if defined(A) && defined(B)\nasm(\"x\");\n#elif defined(B)\n__device__ void f() { asm(\"y\"); }\n#endif\n"), uint8(3))
	// A rewrite in a block that what the header defines keeps from AMD
	// GPUs: the output must not depend on it.
	f.Add([]byte("#if __CUDA_ARCH__ >= 800\n#define A\n#endif\n"), []byte("#ifdef A\nint v = CUDART_VERSION;\nvoid f() { asm(\"x\"); }\n#endif\n"), uint8(2))
	f.Add([]byte("#if __CUDA_ARCH__ >= 800\n#define A\n#endif\n"), []byte("#ifdef A\nint g(int e) { switch (e) { case cudaErrorStubLibrary: return 1; } return 0; }\nvoid f() { asm(\"x\"); }\n#endif\n"), uint8(2))
	f.Add([]byte("#if __CUDA_ARCH__ >= 800\n#define A\n#endif\n"), []byte("#ifdef A\n__device__ float atomicMax(float* a, float v) { return v; }\nextern const dim3 blockDim;\nvoid f() { asm(\"x\"); }\n#endif\n"), uint8(2))
	f.Fuzz(func(t *testing.T, header, src []byte, n uint8) {
		src = append([]byte("#include \"h.cuh\"\n"), src...)
		files := map[string]string{"h.cuh": string(header), "f.cu": string(src)}
		h := NewHeaderMacros(readMap(files), nil, Options{})
		out, diags, _, used := h.TranslateIn("f.cu", src, Options{})
		// What TranslateIn's Reconsider found is what a whole translation
		// with the same options finds, output included.
		whole, wholeDiags := Translate("f.cu", src, used)
		if !bytes.Equal(whole, out) || !slices.Equal(wholeDiags, diags) {
			t.Fatalf("Reconsider differs from a translation with %v\n--- output\n%s\n--- whole\n%s\n--- diagnostics\n%s\n--- whole\n%s",
				used.IncludedMacros, out, whole, diag.AppendText(nil, diags), diag.AppendText(nil, wholeDiags))
		}
		again, _ := Translate("f.cu", out, used)
		if !bytes.Equal(again, out) {
			t.Fatalf("not idempotent\n--- first\n%s\n--- second\n%s", out, again)
		}
		if !isSubsequence(protected(src), protected(out)) {
			t.Fatalf("a comment or string literal changed\n--- input\n%q\n--- output\n%q", src, out)
		}
		if _, _, err := checkSplit("f.cu", src, used, 2+int(n%7)); err != nil {
			t.Fatal(err)
		}
	})
}
