package conformance

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// cudaTopLevel matches the file names that NVIDIA's CUDA toolkit installs
// directly into an include directory (all .h or .hpp, which keeps project
// headers like cuda_utils.cuh out); cudaDirs are the directories it owns.
// Debian's nvidia-cuda-toolkit puts all of them into /usr/include, next to
// the headers hipcc must see.
var (
	cudaTopLevel = regexp.MustCompile(`^(cuda|cublas|cufft|curand|cusparse|cusolver|cuComplex|cudnn|cupti|cutensor|nvrtc|nvToolsExt|nvjpeg|nvblas|nvPTXCompiler|nv_decode|npp|sm_[0-9]+_|generated_cuda|generated_nvtx|cooperative_groups|` +
		`device_(atomic_functions|double_functions|functions|launch_parameters|types)|driver_(functions|types)|vector_(functions|types)|` +
		`builtin_types|channel_descriptor|common_functions|fatbinary_section|host_(config|defines)|library_types|math_(constants|functions)|mma|` +
		`surface_(functions|indirect_functions|types)|texture_(fetch_functions|indirect_functions|types)).*\.(h|hpp)$`)
	cudaDirs = []string{"cooperative_groups", "crt", "cub", "cuda", "nv", "nvtx3", "thrust"}
)

// IsCUDAInclude reports whether an #include path names a CUDA toolkit header.
func IsCUDAInclude(p string) bool {
	first, _, nested := strings.Cut(p, "/")
	if nested {
		for _, d := range cudaDirs {
			if first == d {
				return true
			}
		}
		return false
	}
	return cudaTopLevel.MatchString(p)
}

var includeLine = regexp.MustCompile(`(?m)^[ \t]*#[ \t]*include[ \t]*[<"]([^>"]+)[>"]`)

// CUDAIncludes lists the CUDA headers that a translated file still includes.
func CUDAIncludes(src []byte) []string {
	var found []string
	for _, m := range includeLine.FindAllSubmatch(src, -1) {
		if p := string(m[1]); IsCUDAInclude(p) {
			found = append(found, p)
		}
	}
	return found
}

// ShadowCUDAHeaders builds an include directory that shadows every CUDA
// header found in the system include directory with one that stops the
// compilation, and returns how many it shadowed. Placed first on the include path of a HIP compile, it turns
// any CUDA header that leaks through a translation, directly or through
// another header, into a hard error instead of a silent success against
// NVIDIA's declarations.
func ShadowCUDAHeaders(dir, system string) (int, error) {
	var names []string
	entries, err := os.ReadDir(system)
	if err != nil {
		return 0, err
	}
	for _, e := range entries {
		if !e.IsDir() && cudaTopLevel.MatchString(e.Name()) {
			names = append(names, e.Name())
		}
	}
	for _, d := range cudaDirs {
		root := filepath.Join(system, d)
		if _, err := os.Stat(root); err != nil {
			continue
		}
		err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() {
				return err
			}
			rel, err := filepath.Rel(system, p)
			names = append(names, filepath.ToSlash(rel))
			return err
		})
		if err != nil {
			return 0, err
		}
	}
	sort.Strings(names)
	for _, n := range names {
		p := filepath.Join(dir, filepath.FromSlash(n))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return 0, err
		}
		body := fmt.Sprintf("#error \"CUDA header <%s> leaked into a HIP compilation\"\n", n)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			return 0, err
		}
	}
	return len(names), nil
}
