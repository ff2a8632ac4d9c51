package model

import "strings"

// rocmLibraries maps the CUDA libraries a target may name in link to
// their ROCm counterparts; "" means the library has no place on ROCm
// (the CUDA runtime and driver: hipcc links HIP's own runtime). It is a
// switch, not a map literal: a package's map literals are built at every
// start of hipgen, whatever the command.
func rocmLibraries(name string) (string, bool) {
	switch name {
	case "cudart", "cudart_static", "cuda":
		return "", true
	case "cublas":
		return "hipblas", true
	case "cublasLt":
		return "hipblaslt", true
	case "cufft", "cufftw":
		return "hipfft", true
	case "curand":
		return "hiprand", true
	case "cusparse":
		return "hipsparse", true
	case "cusolver":
		return "hipsolver", true
	case "nvrtc":
		return "hiprtc", true
	case "nccl":
		return "rccl", true
	case "cudnn":
		return "MIOpen", true
	case "nvToolsExt":
		return "roctx64", true
	}
	return "", false
}

// LinkFlags turns link items into linker arguments for the CUDA toolchain
// (rocm false) or for ROCm and HIP-CPU (rocm true). A bare library name
// becomes -lname; flags and paths stay as written. For ROCm, CUDA
// libraries, bare or as -lname, become their ROCm counterparts (cublas is
// hipblas) and the CUDA runtime and driver libraries are dropped.
func LinkFlags(items []string, rocm bool) []string {
	var out []string
	for _, it := range LinkNames(items, rocm) {
		if isLibraryName(it) {
			it = "-l" + it
		}
		out = append(out, it)
	}
	return out
}

// LinkNames is LinkFlags for CMake's target_link_libraries: bare names
// stay bare (CMake adds -l), mapped the same way for ROCm.
func LinkNames(items []string, rocm bool) []string {
	var out []string
	for _, it := range items {
		if rocm {
			name, flag := it, false
			if rest, ok := strings.CutPrefix(it, "-l"); ok && isLibraryName(rest) {
				name, flag = rest, true
			}
			if isLibraryName(name) {
				if r, ok := rocmLibraries(name); ok {
					if r == "" {
						continue
					}
					it = r
					if flag {
						it = "-l" + r
					}
				}
			}
		}
		out = append(out, it)
	}
	return out
}

// isLibraryName reports whether s is a bare library name such as cublas
// or m (not a flag, a path or a file).
func isLibraryName(s string) bool {
	return s != "" && !strings.HasPrefix(s, "-") && !strings.ContainsAny(s, "/.$ ")
}
