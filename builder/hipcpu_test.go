package builder

import (
	"context"
	"github.com/hipgen/hipgen/internal/testtool"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/hipgen/hipgen/diag"
	"github.com/hipgen/hipgen/model"
	"github.com/hipgen/hipgen/sources"
)

// TestHIPCPUBuildAndRun builds a CUDA test target for the hip-cpu platform
// (translated with hipLaunchKernelGGL launches, compiled by g++ against
// HIP-CPU and TBB) and runs it. HIP-CPU is not packaged: the test runs where
// HIP_CPU_ROOT names a checkout.
func TestHIPCPUBuildAndRun(t *testing.T) {
	if os.Getenv("HIP_CPU_ROOT") == "" {
		t.Skip("HIP_CPU_ROOT is not set (HIP-CPU is not packaged)")
	}
	testtool.Require(t, "g++")
	root := t.TempDir()
	writeFile(t, root, "tests/fill_test.cu", `#include <cstdio>
#include <cuda_runtime.h>
__global__ void fill(int* out) { out[blockIdx.x * blockDim.x + threadIdx.x] = 2 * (blockIdx.x * blockDim.x + threadIdx.x); }
int main() {
  int* d;
  if (cudaMallocManaged(&d, 128 * sizeof(int)) != cudaSuccess) { std::puts("no device"); return 77; }
  fill<<<2, 64>>>(d);
  cudaDeviceSynchronize();
  int ok = 1;
  for (int i = 0; i < 128; ++i) ok = ok && d[i] == 2 * i;
  std::printf("%s: d[127]=%d\n", ok ? "PASS" : "FAIL", d[127]);
  cudaFree(d);
  return ok ? 0 : 1;
}
`)
	cache, err := OpenCache(t.TempDir(), 0)
	if err != nil {
		t.Fatal(err)
	}
	p := &model.Project{Name: "cpu", Root: root, Translate: model.TranslateConfig{Out: "hip"},
		Targets: []*model.Target{{Name: "fill_test", Kind: model.KindTest, Srcs: []string{"tests/fill_test.cu"}}}}
	h := Host{Getenv: os.Getenv, LookPath: exec.LookPath, Runner: ExecRunner{}, Environ: os.Environ()}
	tc, err := NewToolchain(context.Background(), h, cache, HIPCPU, nil)
	if err != nil {
		t.Fatal(err)
	}
	tr := Translator{
		Translate: func(_ func(string) ([]byte, error), _ []string, name string, src []byte, launch string, local []string) ([]byte, []diag.Diagnostic) {
			return sources.Translate(name, src, sources.Options{Launch: sources.Launch(launch), LocalIncludes: local})
		},
		OutputPath: sources.OutputPath, IncludeClosure: sources.IncludeClosure, LocalIncludes: sources.LocalIncludes,
	}
	rec := &recorder{}
	res, err := Build(context.Background(), Options{Project: p, Toolchains: []*Toolchain{tc}, Jobs: 2, Cache: cache,
		Runner: ExecRunner{}, Translator: tr, Progress: rec, Environ: os.Environ()})
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK() {
		t.Fatalf("hip-cpu build failed: %v", rec.fails)
	}
	r := RunTest(context.Background(), TestOptions{Root: root, Timeout: time.Minute, Environ: os.Environ()}, res.Artifacts[0])
	if r.Status != TestPass {
		t.Fatalf("hip-cpu test: %s %s\n%s", r.Status, r.Reason, r.Output)
	}
}
