package hipmap

import "testing"

func TestSeedLookups(t *testing.T) {
	tab := Default()
	if e, ok := tab.Identifier("cudaMalloc", Version{}); !ok || e.HIP != "hipMalloc" {
		t.Errorf("cudaMalloc: got %+v, %v", e, ok)
	}
	if e, ok := tab.Header("cuda_bf16.h", Version{5, 2}); !ok || e.HIP != "hip/hip_bfloat16.h" {
		t.Errorf("cuda_bf16.h on 5.2: got %+v, %v", e, ok)
	}
	if e, ok := tab.Header("cuda_bf16.h", Version{6, 2}); !ok || e.HIP != "hip/hip_bf16.h" {
		t.Errorf("cuda_bf16.h on 6.2: got %+v, %v", e, ok)
	}
	e, ok := tab.Identifier("cudaDeviceSetLimit", Version{5, 2})
	if !ok || e.Available(Version{5, 2}) || !e.Available(Version{5, 3}) {
		t.Errorf("cudaDeviceSetLimit: got %+v, %v; want known but not available on 5.2", e, ok)
	}
	if _, ok := tab.Identifier("notACudaName", Version{}); ok {
		t.Errorf("unknown name found")
	}
}
