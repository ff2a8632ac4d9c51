package sources

// Checks names every diagnostic check the translator reports, with what
// it means, for 'hipgen help translate' and for "// hipgen:ignore NAME".
var Checks = []struct{ Name, Meaning string }{
	{"builtin-redefinition", "a project's own definition of a function that HIP declares and CUDA lacks (float atomicMax, float4's +=), renamed or kept for CUDA only, so that HIP's serves the calls"},
	{"call-fix", "a call patched where a HIP declaration or clang is stricter than CUDA (cast, default argument or template keyword added)"},
	{"compute-capability", "a device's major or minor version, which AMD GPUs fill with their generation (gfx90a: 9.0)"},
	{"cuda-arch-guard", "__CUDA_ARCH__ tests and values: hipcc does not define the macro"},
	{"cutlass", "CUTLASS or CuTe, which have no HIP port"},
	{"data-type", "a CUDA data type (cudaDataType, CUDA_R_32F) given the type of the library it is for: before ROCm 5.7 hipBLAS has its own"},
	{"deprecated-api", "a deprecated CUDA or HIP API (translated)"},
	{"fp8-format", "an OCP FP8 type mapped to the fnuz format of gfx94x"},
	{"fp8-range", "the e4m3 bound 448, which is 240 on gfx94x"},
	{"hopper-feature", "wgmma, TMA, cp.async that stays PTX, clusters: NVIDIA hardware features AMD lacks"},
	{"hip-defines", "a finding in the CUDA alternative of a project's own HIP code (the #else of #ifdef USE_AMD_ROCM), which HIP builds compile unless rocm.defines (translate -D) names the switch"},
	{"inline-asm", "inline PTX assembly: rewritten (hipgen_ptx_value, hipgen_ptx_code) when HIP computes every instruction without it, a note; an error otherwise"},
	{"include-not-found", "a quoted #include found neither beside the file nor in an include directory (left untranslated)"},
	{"launch", "a kernel launch that --launch=ggl could not rewrite"},
	{"launch-bounds", "__launch_bounds__ arguments, which HIP reads differently (waves per SIMD, not blocks per multiprocessor)"},
	{"libcuxx", "libcu++ (cuda::std) mapped to the standard library"},
	{"missing-library", "a header of a ROCm library (hipCUB, rocThrust, hipBLAS, ...) that the installed ROCm lacks"},
	{"pytorch", "PyTorch's CUDA API (ATen/cuda and c10/cuda headers, CUDA streams and guards, C10_CUDA_ macros, USE_CUDA) mapped to ROCm PyTorch's, as PyTorch's hipify maps an extension's sources"},
	{"polyfill", "a CUDA function HIP lacks, replaced by a hipgen_ definition"},
	{"relocatable-device-code", "a __device__ function or variable declared in the file, defined in another and used by its device code: the build needs hipcc -fgpu-rdc (nvcc -rdc=true)"},
	{"texture-reference", "texture references (use texture objects)"},
	{"unsupported-api", "a CUDA API with no HIP equivalent in the target ROCm"},
	{"unsupported-header", "a CUDA header with no HIP equivalent in the target ROCm (removed)"},
	{"warp-size-literal", "a literal warp size (32, 31, 5, 16, 0xffffffff) and what became of it"},
	{"wave64-hazard", "warp code with no safe rewrite for 64-wide wavefronts"},
	{"wave64-logical-warp", "a warp construct kept on 32-lane logical warps"},
	{"wave64-native", "warp code in a branch that only HIP builds compile (#ifdef USE_ROCM, __HIP_PLATFORM_AMD__), left as the project wrote it for the wavefront"},
	{"wave64-widen", "a warp construct widened to the whole wavefront"},
}
