package hipmap

import (
	"reflect"
	"testing"
	"testing/fstest"
)

func TestLookups(t *testing.T) {
	tab := Default()
	cases := []struct {
		kind      Kind
		name      string
		rocm      Version
		hip       string
		available bool
	}{
		{Identifier, "cudaMalloc", Version{}, "hipMalloc", true},
		{Identifier, "cudaStream_t", Version{6, 2}, "hipStream_t", true},
		{Identifier, "cublasSgemm", Version{6, 0}, "hipblasSgemm", true},
		{Identifier, "cub::BlockReduce", Version{}, "hipcub::BlockReduce", true},
		{Identifier, "cub", Version{}, "hipcub", true},
		{Identifier, "CU_JIT_MAX_REGISTERS", Version{5, 2}, "hipJitOptionMaxRegisters", true},
		{Identifier, "__nv_bfloat16", Version{5, 2}, "hip_bfloat16", true},
		{Identifier, "__nv_bfloat16", Version{6, 0}, "__hip_bfloat16", true},
		{Identifier, "nv_bfloat16", Version{5, 2}, "hip_bfloat16", true},
		{Identifier, "nv_bfloat16", Version{6, 0}, "__hip_bfloat16", true},
		{Identifier, "__float2bfloat16", Version{5, 2}, "__float2bfloat16", false},
		{Identifier, "__float2bfloat16", Version{5, 7}, "__float2bfloat16", true},
		{Identifier, "__nv_fp8_e4m3", Version{6, 2}, "__hip_fp8_e4m3_fnuz", true},
		{Identifier, "__nv_fp8_e4m3", Version{6, 3}, "__hip_fp8_e4m3", true},
		{Identifier, "__nv_fp8_e4m3", Version{5, 2}, "__hip_fp8_e4m3_fnuz", false},
		{Identifier, "__shfl_xor_sync", Version{5, 2}, "__shfl_xor_sync", false},
		{Identifier, "cudaDeviceSetLimit", Version{5, 2}, "hipDeviceSetLimit", false},
		{Identifier, "cudaDeviceSetLimit", Version{5, 3}, "hipDeviceSetLimit", true},
		{Identifier, "cooperative_groups::reduce", Version{6, 2}, "", false},
		{Header, "cuda_runtime.h", Version{}, "hip/hip_runtime.h", true},
		{Header, "cub/cub.cuh", Version{}, "hipcub/hipcub.hpp", true},
		{Header, "cub/block/block_reduce.cuh", Version{}, "hipcub/block/block_reduce.hpp", true},
		{Header, "cuda_bf16.h", Version{5, 2}, "hip/hip_bfloat16.h", true},
		{Header, "cuda_bf16.h", Version{6, 2}, "hip/hip_bf16.h", true},
		{Header, "cublas_v2.h", Version{5, 1}, "hipblas.h", true},
		{Header, "cublas_v2.h", Version{5, 2}, "hipblas/hipblas.h", true},
		{Header, "thrust/system/cuda/execution_policy.h", Version{}, "thrust/system/hip/execution_policy.h", true},
		{Header, "thrust/sort.h", Version{}, "thrust/sort.h", true},
		{Header, "math_constants.h", Version{5, 2}, "", false},
		{Header, "math_constants.h", Version{5, 3}, "hip/hip_math_constants.h", true},
	}
	for _, c := range cases {
		var e Entry
		var ok bool
		if c.kind == Header {
			e, ok = tab.Header(c.name, c.rocm)
		} else {
			e, ok = tab.Identifier(c.name, c.rocm)
		}
		if !ok || e.HIP != c.hip || e.Available(c.rocm) != c.available {
			t.Errorf("%s %s on ROCm %v: got %q available=%v found=%v; want %q available=%v",
				c.kind, c.name, c.rocm, e.HIP, e.Available(c.rocm), ok, c.hip, c.available)
		}
	}
	for _, name := range []string{"notACudaName", "hipMalloc", "threadIdx"} {
		if e, ok := tab.Identifier(name, Version{}); ok {
			t.Errorf("%s: unexpectedly found %+v", name, e)
		}
	}
}

// TestPickAcrossRanges pins the rule for a release no entry covers: the
// nearest later entry, else the last one.
func TestPickAcrossRanges(t *testing.T) {
	fsys := fstest.MapFS{"d/runtime.tsv": {Data: []byte(
		"cudaX\thipOld\tok\t5.0..5.5\ncudaX\thipNew\tok\t6.0..6.4\n")}}
	tab, err := Load(fsys, "d")
	if err != nil {
		t.Fatal(err)
	}
	for v, want := range map[Version]string{
		{4, 0}: "hipOld", {5, 2}: "hipOld", {5, 7}: "hipNew", {6, 1}: "hipNew", {7, 0}: "hipNew",
	} {
		if e, _ := tab.Identifier("cudaX", v); e.HIP != want {
			t.Errorf("ROCm %v: got %s, want %s", v, e.HIP, want)
		}
	}
	if e, _ := tab.Identifier("cudaX", Version{5, 7}); e.Available(Version{5, 7}) {
		t.Errorf("5.7 lies between the ranges but the entry says available")
	}
}

func TestParseVersion(t *testing.T) {
	good := map[string]Version{"5.2": {5, 2}, "6.2.1": {6, 2}, "7": {7, 0}, " 6.10 ": {6, 10}}
	for s, want := range good {
		if got, err := ParseVersion(s); err != nil || got != want {
			t.Errorf("ParseVersion(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	for _, s := range []string{"", "x", "5.x", "5.2.1.0", "-1.2", "5..2"} {
		if _, err := ParseVersion(s); err == nil {
			t.Errorf("ParseVersion(%q) accepted", s)
		}
	}
}

func TestLoadIsDeterministic(t *testing.T) {
	a, err := Load(embeddedData, "data")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Load(embeddedData, "data")
	if !reflect.DeepEqual(a.Entries(), b.Entries()) || a.Version() != b.Version() {
		t.Fatal("two loads of the same data differ")
	}
	es := a.Entries()
	for i := 1; i < len(es); i++ {
		p, q := es[i-1], es[i]
		if p.Kind > q.Kind || p.Kind == q.Kind && p.CUDA > q.CUDA {
			t.Fatalf("Entries not sorted at %d: %s %s before %s %s", i, p.Kind, p.CUDA, q.Kind, q.CUDA)
		}
	}
}

// benchNames mixes hits from several families with misses, as a source
// file's identifiers do (most identifiers are not CUDA names).
var benchNames = []string{
	"cudaMalloc", "i", "cudaMemcpyAsync", "threadIdx", "float", "cublasSgemm_v2",
	"blockDim", "__shfl_xor_sync", "cub::BlockReduce", "n", "cudaStream_t", "result",
	"curand_init", "__float2half", "cusparseCreate", "tmp",
}

func BenchmarkIdentifier(b *testing.B) {
	tab := Default()
	v := Version{6, 2}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tab.Identifier(benchNames[i%len(benchNames)], v)
	}
}

func BenchmarkIdentifierParallel(b *testing.B) {
	tab := Default()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			tab.Identifier(benchNames[i%len(benchNames)], DefaultROCm)
			i++
		}
	})
}

func BenchmarkLoad(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := Load(embeddedData, "data"); err != nil {
			b.Fatal(err)
		}
	}
}

// TestAllIsTheTable checks that All yields the table's entries, in the
// order of Entries.
func TestAllIsTheTable(t *testing.T) {
	want := Default().Entries()
	var all []Entry
	for e := range Default().All() {
		all = append(all, e)
	}
	if !reflect.DeepEqual(all, want) {
		t.Fatalf("All gave %d entries; the table has %d", len(all), len(want))
	}
}
