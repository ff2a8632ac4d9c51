package sources

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/hipgen/hipgen/diag"
	"github.com/hipgen/hipgen/sources/hipmap"
	"github.com/rogpeppe/go-internal/txtar"
)

// walkResult is everything a translation gives, for comparing a split
// walk with the sequential one.
type walkResult struct {
	out    []byte
	diags  []diag.Diagnostic
	mapped map[string]int
}

// translateParts translates src walking it in n parts (n < 2: in one), and
// returns the result and how many parts runSplit cut and took over.
func translateParts(name string, src []byte, opts Options, n int) (r walkResult, cut, taken int) {
	u := Parse(name, src)
	t := newTranslator(u.name, u.src, u.code, opts)
	if n < 2 {
		t.run()
	} else {
		cut, taken = t.runSplit(n)
	}
	r.out = t.assemble(nil)
	r.diags = t.filterSuppressed()
	diag.Sort(r.diags)
	r.mapped = t.mapped
	return r, cut, taken
}

// checkSplit reports how a split walk of src differs from the sequential
// one, if it does.
func checkSplit(name string, src []byte, opts Options, n int) (cut, taken int, err error) {
	want, _, _ := translateParts(name, src, opts, 1)
	got, cut, taken := translateParts(name, src, opts, n)
	switch {
	case !bytes.Equal(got.out, want.out):
		return cut, taken, fmt.Errorf("%d parts: output differs\n--- sequential\n%s\n--- split\n%s", n, want.out, got.out)
	case !slices.Equal(got.diags, want.diags):
		return cut, taken, fmt.Errorf("%d parts: diagnostics differ\n--- sequential\n%v\n--- split\n%v", n, want.diags, got.diags)
	case !reflect.DeepEqual(got.mapped, want.mapped):
		return cut, taken, fmt.Errorf("%d parts: counts differ: sequential %v, split %v", n, want.mapped, got.mapped)
	}
	return cut, taken, nil
}

// TestSplitWalk walks every golden input, the repository's programs and,
// where HIPGEN_BENCH_CORPUS is set, an external corpus in 2 to 8 parts,
// under each option that changes the walk, and wants the sequential
// walk's result every time. It also wants the parts taken over most of
// the time: a split walk that always walks again is correct but useless.
func TestSplitWalk(t *testing.T) {
	type input struct {
		name string
		src  []byte
		opts Options
	}
	var inputs []input
	for _, g := range loadGoldens(t) {
		inputs = append(inputs, input{g.name, g.input, g.opts})
	}
	units := programUnits(t)
	if os.Getenv("HIPGEN_BENCH_CORPUS") != "" {
		units = append(units, externalUnits(t)...)
	}
	variants := []Options{{}, {Wave: WaveWide}, {Launch: LaunchGGL}, {ROCmVersion: hipmap.Version{Major: 6, Minor: 4}}}
	for _, u := range units {
		for _, o := range variants {
			inputs = append(inputs, input{u.name, u.src, o})
		}
	}
	var cuts, taken int
	for _, in := range inputs {
		for _, n := range []int{2, 3, 5, 8} {
			c, k, err := checkSplit(in.name, in.src, in.opts, n)
			if err != nil {
				t.Fatalf("%s (%+v): %v", in.name, in.opts, err)
			}
			cuts += c
			taken += k
		}
	}
	t.Logf("%d inputs: %d parts cut, %d taken over", len(inputs), cuts, taken)
	if cuts == 0 || taken < cuts*3/4 {
		t.Errorf("%d parts cut, only %d taken over", cuts, taken)
	}
}

// TestSplitWalkCarriedState covers each piece of carried state with a file
// cut where it matters: a part taken over must see it as the sequential
// walk did, and a part that cannot is walked again.
func TestSplitWalkCarriedState(t *testing.T) {
	fn := func(i int) string {
		return fmt.Sprintf("__global__ void k%d(int *p) {\n  p[threadIdx.x] = __shfl_down_sync(0xffffffff, p[0], 16);\n}\n", i)
	}
	var body bytes.Buffer
	for i := range 40 {
		body.WriteString(fn(i))
	}
	// Cases marked "again" have a part that read state changed before
	// its cut, which must be walked again (with 2 parts in wide mode
	// for the ballots, with any number for the others).
	again := map[string]bool{"runtime include late": true, "once per file": true, "wide ballots": true}
	cases := map[string]string{
		"include guard":        "#ifndef A_H\n#define A_H\n" + body.String() + "#endif\n",
		"arch block across":    "#if __CUDA_ARCH__ >= 800\n" + body.String() + "#endif\n" + body.String(),
		"namespace alias":      "#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n" + body.String() + "__device__ void f() { cg::thread_block b = cg::this_thread_block(); b.sync(); }\n",
		"using directive":      "#include <cub/cub.cuh>\nusing namespace cub;\n" + body.String() + "__device__ void f() { BlockReduce<int, 128> r; }\n",
		"namespace wrap":       "namespace outer {\n" + body.String() + "}\n",
		"runtime include late": body.String() + "#include <cuda_runtime.h>\n" + body.String() + "#include <cuda_runtime.h>\n",
		"once per file":        body.String() + "__device__ __nv_fp8_e4m3 a;\n" + body.String() + "__device__ __nv_fp8_e4m3 b;\ncutlass::gemm g;\n" + body.String() + "cutlass::gemm h;\n",
		"wide ballots":         "__device__ void w() { unsigned m = __ballot_sync(0xffffffff, 1); }\n" + body.String() + "__device__ int v(unsigned m) { return __popc(m); }\n",
		"polyfills":            body.String() + "__device__ void p(float *a) { __nanosleep(10); }\n" + body.String() + "__device__ void q() { __nanosleep(5); }\n",
	}
	for name, src := range cases {
		for _, o := range []Options{{}, {Wave: WaveWide}} {
			for _, n := range []int{2, 3, 4, 7} {
				cut, taken, err := checkSplit("f.cu", []byte(src), o, n)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if cut == 0 {
					t.Errorf("%s: %d parts: no cut", name, n)
				}
				if wantAgain := again[name] && n == 4 && (name != "wide ballots" || o.Wave == WaveWide); wantAgain && taken == cut {
					t.Errorf("%s (%+v): %d parts: all %d taken over, want one walked again", name, o, n, cut)
				} else if !again[name] && taken != cut {
					t.Errorf("%s (%+v): %d parts: %d of %d taken over, want all", name, o, n, taken, cut)
				}
			}
		}
	}
}

// TestForkCopiesEveryField fails when the translator gains a field, so that
// whoever adds it decides how a split walk treats it (see split.go): read
// only and shared, carried and compared, or accumulated and merged.
func TestForkCopiesEveryField(t *testing.T) {
	known := map[string]string{
		"name": "shared", "src": "shared", "opts": "shared", "tbl": "shared", "ver": "shared",
		"toks": "shared", "comments": "shared", "scopes": "shared", "br": "shared", "idents": "shared", "filters": "shared",
		"insertAt": "shared", "oldMarker": "shared", "helperRegion": "shared", "polyfillRegion": "shared", "maybeWGMMA": "shared",
		"replay":      "nil but on the copies fileMacros replays with, which walk nothing",
		"lineInserts": "assemble only", "bom": "assemble only",
		"posOff": "cache", "posLine": "cache", "lines": "cache", "facts": "shared, safe for concurrent use", "macroFacts": "shared, safe for concurrent use", "names": "shared",
		"edits": "merged", "diags": "merged", "mapped": "merged", "asked": "merged", "onAsk": "shared, safe for concurrent use", "runtimeIncludes": "merged", "firstHIPHeader": "merged", "mathUse": "merged", "mathIncluded": "merged",
		"needRuntime": "merged", "needHelpers": "merged", "sharedLogical": "merged", "polyfills": "merged", "includeEnds": "merged", "deviceDecls": "merged",
		"fp8Noted": "carried", "cutlassNoted": "carried", "coalescedNoted": "carried",
		"conds": "carried", "deadOnHIP": "carried", "nsScopes": "carried", "wave": "carried",
	}
	typ := reflect.TypeOf(translator{})
	for i := range typ.NumField() {
		if _, ok := known[typ.Field(i).Name]; !ok {
			t.Errorf("translator.%s is new: decide how fork, sameCarried, compatible and absorb treat it, then list it here", typ.Field(i).Name)
		}
	}
	wave := reflect.TypeOf(waveState{})
	if wave.NumField() != 4 {
		t.Errorf("waveState has %d fields, not 4: decide how a split walk treats the new one", wave.NumField())
	}
}

// FuzzSplitWalk wants a walk in parts to give the sequential walk's
// result on any input, however it is cut.
func FuzzSplitWalk(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	for _, p := range files {
		if a, err := txtar.ParseFile(p); err == nil && len(a.Files) > 0 {
			f.Add(a.Files[0].Data, uint8(3), false)
		}
	}
	f.Add([]byte("#if X\nnamespace a = cub;\n}\n#endif\nint x;\n#include <cuda_runtime.h>\n"), uint8(4), true)
	f.Fuzz(func(t *testing.T, src []byte, n uint8, wide bool) {
		opts := Options{}
		if wide {
			opts.Wave = WaveWide
		}
		if _, _, err := checkSplit("f.cu", src, opts, 2+int(n%7)); err != nil {
			t.Fatal(err)
		}
	})
}
