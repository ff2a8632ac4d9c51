package sources

import (
	"strings"

	"github.com/hipgen/hipgen/diag"
	"github.com/hipgen/hipgen/sources/hipmap"
	"github.com/hipgen/hipgen/sources/lex"
)

// CUDA's data types (cudaDataType and its CUDA_R_*/CUDA_C_* members) are
// shared by all its libraries. ROCm's are not until 5.7: hipBLAS takes its
// own hipblasDatatype_t (HIPBLAS_R_32F = 151), which the table maps them to
// before 5.7, while hipSPARSE's generic API, hipRAND and hipFFT take
// hip/library_types.h's hipDataType (HIP_R_32F = 0), with six members in
// ROCm 5.2. In a file that uses another library's data-typed API and not
// cuBLAS's, the hipBLAS spelling does not compile (every cuSPARSE sample of
// NVIDIA's CUDALibrarySamples failed on it). So, from 4.1 (whose hipSPARSE
// first takes hipDataType, in its generic API, at ROCm/hipSPARSE's tags) to
// 5.7, each use takes the type of the library whose call it is an argument
// of, and one outside a call the type of the only library the file uses of
// the two kinds.

// hipDataTypes52 are the members of hipDataType from ROCm 4.1 to 5.2 at
// least (ROCm/HIP's library_types.h at the tags, and Debian's 5.2).
var hipDataTypes52 = map[string]bool{"HIP_R_16F": true, "HIP_R_32F": true, "HIP_R_64F": true, "HIP_C_16F": true, "HIP_C_32F": true, "HIP_C_64F": true}

var (
	dataTypesFrom = hipmap.Version{Major: 4, Minor: 1} // hipSPARSE's generic API, with hipDataType
	dataTypesOne  = hipmap.Version{Major: 5, Minor: 7} // one data type for all libraries
)

// dataTypeLibrary tells which data type the use at k of a CUDA data type
// needs: blas for hipBLAS's, else hipDataType. known is false when nothing
// tells (the file uses neither kind of library, or both and k is in no
// library's call).
func (t *translator) dataTypeLibrary(k int) (blas, known bool) {
	// Out through the parentheses around k, within its statement.
	depth := 0
scan:
	for j := k - 1; j >= 0 && j > k-4096; j-- {
		if t.tok(j).Kind != lex.Punct {
			continue
		}
		switch {
		case t.isByte(j, ')'):
			depth++
		case t.isByte(j, '(') && depth > 0:
			depth--
		case t.isByte(j, '('):
			if t.tok(j-1).Kind != lex.Ident {
				continue
			}
			if blas, other := libraryName(t.text(j - 1)); blas || other {
				return blas, true
			}
		case depth == 0 && (t.isByte(j, ';') || t.isByte(j, '{') || t.isByte(j, '}')):
			break scan // the statement's start: in no library's call
		}
	}
	blas, other := t.fileNamesLibraries()
	return blas, blas != other
}

// libraryName reports whether the identifier b is cuBLAS's (cublas...,
// CUBLAS...) or hipBLAS's, or one of the other libraries' with data-typed
// APIs: cuSPARSE, cuRAND, cuFFT, cuSOLVER or their HIP counterparts (a
// translation's output is judged as its input was).
func libraryName(b []byte) (blas, other bool) {
	if len(b) < 6 || b[0] != 'c' && b[0] != 'C' && b[0] != 'h' && b[0] != 'H' {
		return false, false
	}
	for _, p := range [...]string{"cublas", "hipblas"} {
		if hasPrefixFold(b, p) {
			return true, false
		}
	}
	for _, p := range [...]string{"cusparse", "curand", "cufft", "cusolver", "hipsparse", "hiprand", "hipfft", "hipsolver"} {
		if hasPrefixFold(b, p) {
			return false, true
		}
	}
	return false, false
}

// hasPrefixFold reports whether b starts with the lower-case prefix p in
// either case (cublasGemmEx, CUBLAS_OP_N).
func hasPrefixFold(b []byte, p string) bool {
	return len(b) >= len(p) && strings.EqualFold(string(b[:len(p)]), p)
}

// fileNamesLibraries reports whether the file names cuBLAS identifiers
// (cublas..., CUBLAS...), and whether it names those of the other
// libraries with data-typed APIs (see libraryName).
func (t *translator) fileNamesLibraries() (blas, other bool) {
	f := t.facts
	f.librariesOnce.Do(func() {
		for _, tk := range t.toks {
			if tk.Kind != lex.Ident || tk.End-tk.Start < 6 {
				continue
			}
			blas, other := libraryName(t.src[tk.Start:tk.End])
			f.namesBLAS = f.namesBLAS || blas
			f.namesOtherLibs = f.namesOtherLibs || other
		}
	})
	return f.namesBLAS, f.namesOtherLibs
}

// libraryDataType returns the entry for the use at k of the CUDA data
// type e: e itself, or, where the use needs hipDataType before ROCm 5.7,
// the hipDataType spelling (unavailable before 5.7 for the members ROCm
// 5.2's hipDataType lacks).
func (t *translator) libraryDataType(k int, e hipmap.Entry) hipmap.Entry {
	if e.Family != "cublas" || t.ver.Less(dataTypesFrom) || !t.ver.Less(dataTypesOne) || !e.Available(t.ver) {
		return e
	}
	var hip string
	switch {
	case e.HIP == "hipblasDatatype_t":
		hip = "hipDataType"
	case (strings.HasPrefix(e.CUDA, "CUDA_R_") || strings.HasPrefix(e.CUDA, "CUDA_C_")) &&
		(strings.HasPrefix(e.HIP, "HIPBLAS_R_") || strings.HasPrefix(e.HIP, "HIPBLAS_C_")):
		later, ok := t.tbl.Identifier(e.CUDA, dataTypesOne)
		if !ok {
			return e
		}
		hip = later.HIP
	default:
		return e
	}
	if blas, known := t.dataTypeLibrary(k); blas || !known {
		return e
	}
	d := e
	d.HIP = hip
	if hip != "hipDataType" && !hipDataTypes52[hip] {
		d.MinROCm, d.MaxROCm = dataTypesOne, hipmap.Version{}
		d.Note = "hipDataType, which hipSPARSE, hipRAND and hipFFT take, has only 16F, 32F and 64F members, real and complex, before ROCm 5.7"
		return d
	}
	t.report(k, diag.Note, "data-type", e.CUDA+" became "+hip+", not "+e.HIP+": before ROCm 5.7 hipBLAS has data types of its own (hipblasDatatype_t), and this use is for another library (hipSPARSE, hipRAND, hipFFT, hipSOLVER), which takes hip/library_types.h's hipDataType"+oncePerFile)
	return d
}
