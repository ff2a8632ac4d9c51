package sources

import (
	"sync"

	"github.com/hipgen/hipgen/sources/lex"
)

// cudaGuards maps the include guards of CUDA headers to those of the HIP
// headers that replace them. Code such as cuda-samples' helper_cuda.h tests
// them ("#ifdef __DRIVER_TYPES_H__") to decide which helpers to compile;
// without the rename those helpers silently disappear from the HIP build.
var cudaGuards = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"__CUDA_RUNTIME_H__":     "HIP_INCLUDE_HIP_HIP_RUNTIME_H",
		"__CUDA_RUNTIME_API_H__": "HIP_INCLUDE_HIP_HIP_RUNTIME_API_H",
		"__cuda_cuda_h__":        "HIP_INCLUDE_HIP_HIP_RUNTIME_H",
		"__DRIVER_TYPES_H__":     "HIP_INCLUDE_HIP_DRIVER_TYPES_H",
		"__VECTOR_TYPES_H__":     "HIP_INCLUDE_HIP_HIP_VECTOR_TYPES_H",
		"__LIBRARY_TYPES_H__":    "HIP_INCLUDE_HIP_LIBRARY_TYPES_H",
		"__TEXTURE_TYPES_H__":    "HIP_INCLUDE_HIP_HIP_TEXTURE_TYPES_H",
		"__CUDA_FP16_H__":        "HIP_INCLUDE_HIP_HIP_FP16_H",
		"CU_COMPLEX_H_":          "HIP_INCLUDE_HIP_HIP_COMPLEX_H",
	}
})

// guardMacro rewrites a CUDA include guard tested in a conditional
// directive (#ifdef G, #ifndef G, defined(G), defined G). It reports
// whether the identifier at k was one.
func (t *translator) guardMacro(k int) bool {
	tk := t.tok(k)
	if !tk.Directive || tk.Kind != lex.Ident {
		return false
	}
	hip, ok := cudaGuards()[string(t.text(k))]
	if !ok {
		return false
	}
	tested := (t.is(k-1, "ifdef") || t.is(k-1, "ifndef")) && t.is(k-2, "#") ||
		t.is(k-1, "defined") || t.is(k-1, "(") && t.is(k-2, "defined")
	if !tested {
		return false
	}
	t.replace(k, hip)
	return true
}
