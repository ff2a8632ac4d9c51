package sources

import "testing"

func TestConditionPasses(t *testing.T) {
	const u, f, tr = triUnknown, triFalse, triTrue
	cases := []struct {
		cond         string
		device, host tri
	}{
		{"defined(__CUDA_ARCH__)", tr, f},
		{"defined __CUDA_ARCH__", tr, f},
		{"!defined(__HIP_DEVICE_COMPILE__)", f, tr},
		{"__CUDA_ARCH__", tr, f}, // a truth test: becomes __HIP_DEVICE_COMPILE__
		{"__CUDA_ARCH__ >= 800", f, f},
		{"__CUDA_ARCH__ < 750", tr, tr},
		{"(__CUDA_ARCH__ >= 500)", f, f},
		{"defined(USE_ROCM) || (defined(__CUDA_ARCH__) && (__CUDA_ARCH__ < 750 || CUDART_VERSION < 11000))", tr, u},
		{"defined(USE_ROCM) && defined(__CUDA_ARCH__)", u, f},
		{"defined(__HIP_PLATFORM_AMD__) || defined(X)", tr, tr},
		{"defined(__HIP_PLATFORM_NVIDIA__)", f, f},
		{"defined(__NVCC__) && X > 2", f, f},
		{"defined(CUBLAS_API_H_)", f, f},
		{"1", tr, tr},
		{"0x10 - 16", f, f},
		{"(2 + 3) * 4 == 20", tr, tr},
		{"1 ? 0 : X", f, f},
		{"X ? 1 : 1", tr, tr},
		{"X ? 1 : 0", u, u},
		{"-1 < 0 && ~0 == -1 && 7 % 4 == 3 && 1 << 3 == 8", tr, tr},
		{"10UL / 0", u, u},
		{"__has_include(<hip/hip_runtime.h>) || 0", u, u},
		{"FOO(1, 2) && 0", f, f},
		{"'a' == 97", u, u},
		{"(1", u, u},  // not an expression
		{"1 +", u, u}, // not an expression
		{"1 ? 2", u, u},
		{"08", u, u}, // not an octal number
	}
	for _, c := range cases {
		src := []byte("#if " + c.cond + "\n#endif\n")
		u := Parse("k.cu", src)
		tl := newTranslator(u.name, u.src, u.code, Options{})
		got := tl.conditionPasses(0)
		if got.device != c.device || got.host != c.host {
			t.Errorf("#if %s: device %v host %v, want %v %v", c.cond, got.device, got.host, c.device, c.host)
		}
	}
}

// A file that defines __CUDA_ARCH__ itself means its own definition:
// nothing is known of its conditions.
func TestConditionPassesOwnArch(t *testing.T) {
	src := []byte("#define __CUDA_ARCH__ 800\n#if defined(__CUDA_ARCH__)\n#endif\n")
	u := Parse("k.cu", src)
	tl := newTranslator(u.name, u.src, u.code, Options{})
	k := 0
	for !tl.is(k, "if") {
		k++
	}
	if got := tl.conditionPasses(k - 1); got != (passes{}) {
		t.Errorf("got %+v, want unknown", got)
	}
}

// TestHIPSwitch tells a project's switch of its HIP builds, which a
// manifest's rocm.defines names, from HIP's own macros and from features
// of HIP builds.
func TestHIPSwitch(t *testing.T) {
	for name, want := range map[string]bool{
		"USE_ROCM": true, "GGML_USE_HIP": true, "USE_AMD_ROCM": true, "PADDLE_WITH_HIP": true,
		"GGML_USE_HIPBLAS": true, "WITH_HCC": true, "MY_HIPCC": true,
		"GGML_HIP_GRAPHS": false, "GGML_HIP_NO_VMM": false, "TORCH_USE_HIP_DSA": false,
		"__HIP_PLATFORM_AMD__": false, "__HIPCC__": false, "HIP_VERSION": false,
		"HIP": true, "USE_CUDA": false, "CHIP": false, "AMD_GPU_BUILD": false,
	} {
		if got := HIPSwitch(name); got != want {
			t.Errorf("HIPSwitch(%q) = %v, want %v", name, got, want)
		}
	}
}
