package sources

import (
	"slices"
	"strings"

	"github.com/hipgen/hipgen/diag"
)

// ROCm's libraries that translations include headers of. An installation
// may lack any of them (Debian 12 packages hipRAND, hipSPARSE and rocPRIM
// but not hipCUB, rocThrust, hipBLAS, hipBLASLt, hipFFT or hipSOLVER); a
// file that includes one it lacks cannot compile there, and hipcc would
// only say that a header is not found.

// Library is one ROCm library: the HIP headers that are its own, and the
// headers whose presence in an include directory shows it is installed.
type Library struct {
	Name string
	// Prefixes of the header paths (as #include names them) that belong
	// to the library: a directory ("hipcub/") or a file name's start
	// ("hipblas.h").
	Prefixes []string
	// Markers are headers only the library installs; any one present
	// means it is. (rocThrust's thrust/ has CUDA Thrust's names, which
	// NVIDIA's toolkit installs too, in /usr/include on Debian; only
	// thrust/system/hip/ is rocThrust's alone.)
	Markers []string
}

// Libraries lists the libraries checked, longest prefixes first where two
// overlap (hipblaslt before hipblas).
var Libraries = []Library{
	{"hipCUB", []string{"hipcub/"}, []string{"hipcub/hipcub.hpp"}},
	{"rocThrust", []string{"thrust/"}, []string{"thrust/system/hip/config.h"}},
	{"hipBLASLt", []string{"hipblaslt/", "hipblaslt.h", "hipblaslt-"}, []string{"hipblaslt/hipblaslt.h", "hipblaslt.h"}},
	{"hipBLAS", []string{"hipblas/", "hipblas.h", "hipblas-"}, []string{"hipblas/hipblas.h", "hipblas.h"}},
	{"hipFFT", []string{"hipfft/", "hipfft.h", "hipfftXt.h", "hipfft-"}, []string{"hipfft/hipfft.h", "hipfft.h"}},
	{"hipRAND", []string{"hiprand/", "hiprand.h", "hiprand_", "hiprand.hpp"}, []string{"hiprand/hiprand.h", "hiprand.h"}},
	{"hipSPARSE", []string{"hipsparse/", "hipsparse.h", "hipsparse-"}, []string{"hipsparse/hipsparse.h", "hipsparse.h"}},
	{"hipSOLVER", []string{"hipsolver/", "hipsolver.h", "hipsolver-"}, []string{"hipsolver/hipsolver.h", "hipsolver.h"}},
	{"ROCTX (roctracer)", []string{"roctracer/"}, []string{"roctracer/roctx.h"}},
}

// libraryOf returns the index in Libraries of the library whose header p
// (an #include path on the HIP side) is, or -1.
func libraryOf(p string) int {
	for i := range Libraries {
		for _, pre := range Libraries[i].Prefixes {
			if strings.HasPrefix(p, pre) {
				return i
			}
		}
	}
	return -1
}

// missingLibrary reports an include, at token pk, of a header of a library
// that the ROCm installation translated for lacks
// (Options.MissingLibraries): once per library and file, at the first. hip
// is the header the translation includes.
func (t *translator) missingLibrary(pk int, hip string) {
	if len(t.opts.MissingLibraries) == 0 {
		return
	}
	i := libraryOf(hip)
	if i < 0 || !slices.Contains(t.opts.MissingLibraries, Libraries[i].Name) {
		return
	}
	lib := &Libraries[i]
	t.report(pk, diag.Warning, "missing-library", "the file includes headers of "+lib.Name+", which the installed ROCm "+t.ver.String()+
		" lacks (no "+strings.Join(lib.Markers, " or ")+" in its include directory): it cannot compile with that ROCm until "+lib.Name+" is installed"+oncePerFile)
}
