package conformance

import (
	"github.com/hipgen/hipgen/internal/testtool"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestCUDAIncludes(t *testing.T) {
	src := []byte(`#include <hip/hip_runtime.h>
#include "cuda_utils.cuh"
  #  include <cuda_fp16.h>
#include <thrust/device_vector.h>
#include <cooperative_groups/reduce.h>
#include <hip/hip_cooperative_groups.h>
#include <vector_types.h>
#include <mma.h>
#include <vector>
// #include <cuda.h> in a comment is not an include
`)
	got := CUDAIncludes(src)
	want := []string{"cuda_fp16.h", "thrust/device_vector.h", "cooperative_groups/reduce.h", "vector_types.h", "mma.h"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("cudaIncludes = %q, want %q", got, want)
	}
}

// TestShadowedCUDAHeaderStopsHIPCompile proves that the include directory
// used for every HIP compile turns a leaked CUDA header into an error even
// though Debian installs the real one into /usr/include, and that it leaves
// HIP's own headers alone.
func TestShadowedCUDAHeaderStopsHIPCompile(t *testing.T) {
	if _, err := os.Stat("/usr/include/cuda_runtime.h"); err != nil {
		t.Skip("no CUDA headers in /usr/include: nothing can leak on this machine")
	}
	hipcc := testtool.Require(t, "hipcc")
	dir := t.TempDir()
	poison := filepath.Join(dir, "poison")
	n, err := ShadowCUDAHeaders(poison, "/usr/include")
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("cuda_runtime.h exists but no CUDA header was shadowed")
	}
	compile := func(name, body string) (string, error) {
		src := filepath.Join(dir, name)
		if err := os.WriteFile(src, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := run("", []string{"HIP_PLATFORM=amd"}, 3*time.Minute, hipcc,
			"-I", poison, "--offload-arch=gfx90a", "-c", src, "-o", src+".o")
		return string(out), err
	}
	clean := "#include <hip/hip_runtime.h>\n#include <hip/hip_fp16.h>\n__global__ void k(int *p) { p[threadIdx.x] = __popcll(__ballot(1)); }\n"
	if out, err := compile("clean.hip", clean); err != nil {
		t.Fatalf("a HIP file without CUDA headers must compile: %v\n%s", err, tail([]byte(out), 20))
	}
	leaky := "#include <hip/hip_runtime.h>\n#include <cuda_runtime.h>\n__global__ void k(int *p) { p[threadIdx.x] = 1; }\n"
	out, err := compile("leaky.hip", leaky)
	if err == nil {
		t.Fatal("a HIP file including <cuda_runtime.h> compiled; CUDA headers are reachable")
	}
	if !strings.Contains(out, "CUDA header <cuda_runtime.h> leaked") {
		t.Fatalf("compile failed, but not because of the shadowed header:\n%s", tail([]byte(out), 20))
	}
}
