package main

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hipgen/hipgen/builder"
	"github.com/hipgen/hipgen/internal/lazyre"
	"github.com/hipgen/hipgen/sources"
)

// cxxFile reports whether the slash path rel names a C, C++ or CUDA
// header or source, a file an #include may name.
func cxxFile(rel string) bool {
	switch strings.ToLower(path.Ext(rel)) {
	case ".h", ".hh", ".hpp", ".hxx", ".h++", ".inl", ".inc", ".ipp", ".tcc", ".cuh",
		".c", ".cc", ".cpp", ".cxx", ".cu":
		return true
	}
	return false
}

// includeDirsFor returns the include directories of a starter manifest,
// sorted: each directory that holds a .cuh header, and each directory that
// an #include of a file the CUDA sources reach must be looked up from to
// name a file of the project, as src for #include <lib/util.hxx> naming
// src/lib/util.hxx, or Common for cuda-samples' #include <helper_cuda.h>.
// cus and cuhs are the project's .cu and .cuh files, others its other C
// and C++ files (slash paths from root). An include that names a header of
// NVIDIA's toolkit or PyTorch's CUDA API is never looked up in the project;
// where several directories would do, the shortest path is taken (then the
// first in byte order), so that the result is the same on every machine.
func includeDirsFor(files *fileReader, cus, cuhs, others []string) ([]string, error) {
	dirs := map[string]bool{}
	for _, h := range cuhs {
		dirs[path.Dir(h)] = true
	}
	sorted := slices.Sorted(maps.Keys(dirs)) // dirs, in the order a lookup tries them
	exists := map[string]bool{}
	byBase := map[string][]string{}
	for _, list := range [][]string{cus, cuhs, others} {
		for _, f := range list {
			exists[f] = true
			byBase[path.Base(f)] = append(byBase[path.Base(f)], f)
		}
	}
	queue := append(slices.Clone(cus), cuhs...)
	seen := map[string]bool{}
	for _, f := range queue {
		seen[f] = true
	}
	for len(queue) > 0 {
		f := queue[0]
		queue = queue[1:]
		data, err := files.read(f)
		if err != nil {
			return nil, err
		}
		for _, inc := range sources.Includes(data) {
			target := ""
			for _, c := range sources.IncludeCandidates(f, inc, sorted) {
				if exists[c] {
					target = c
					break
				}
			}
			if target == "" {
				if sources.GPUHeader(inc.Path) {
					continue
				}
				dir, ok := includeDirOf(inc.Path, byBase[path.Base(inc.Path)])
				if !ok {
					continue
				}
				dirs[dir] = true
				sorted = slices.Sorted(maps.Keys(dirs))
				target = path.Join(dir, inc.Path)
			}
			if !seen[target] {
				seen[target] = true
				queue = append(queue, target)
			}
		}
	}
	return sorted, nil
}

// fileReader reads the project's files for init, each once: the include
// closures of the programs and of the library share most of their
// headers. A file's error (one that is not there) is kept too.
type fileReader struct {
	root  string
	files map[string]readFile
}

type readFile struct {
	data []byte
	err  error
}

func newFileReader(root string) *fileReader {
	return &fileReader{root: root, files: map[string]readFile{}}
}

// read returns the contents of the file at the slash path p from the root.
func (r *fileReader) read(p string) ([]byte, error) {
	f, ok := r.files[p]
	if !ok {
		f.data, f.err = os.ReadFile(filepath.Join(r.root, filepath.FromSlash(p)))
		r.files[p] = f
	}
	return f.data, f.err
}

// buildFiles calls f with each of files (slash paths from the root) that
// hipgen did not generate, and its bytes, in order.
func (r *fileReader) buildFiles(files []string, f func(rel string, data []byte)) error {
	for _, rel := range files {
		data, err := r.read(rel)
		if err != nil {
			return err
		}
		if !builder.HasGeneratedMarker(data) {
			f(rel, data)
		}
	}
	return nil
}

// includeDirOf returns the directory from which the include path inc
// names one of files (slash paths that share inc's last element): the
// shortest such directory, then the first in byte order. A path that is
// absolute or climbs with .. is never looked up.
func includeDirOf(inc string, files []string) (string, bool) {
	if path.IsAbs(inc) || inc != path.Clean(inc) || inc == ".." || strings.HasPrefix(inc, "../") {
		return "", false
	}
	best, ok := "", false
	for _, f := range files {
		var dir string
		switch {
		case f == inc:
			dir = "."
		case strings.HasSuffix(f, "/"+inc):
			dir = f[:len(f)-len(inc)-1]
		default:
			continue
		}
		if !ok || len(dir) < len(best) || (len(dir) == len(best) && dir < best) {
			best, ok = dir, true
		}
	}
	return best, ok
}

// buildFile reports whether the slash path rel names a build file that
// may hold the project's nvcc flags: CMake, setuptools or make.
func buildFile(rel string) bool {
	base := path.Base(rel)
	switch {
	case base == "CMakeLists.txt", base == "setup.py", base == "Makefile", base == "GNUmakefile":
		return true
	case strings.HasSuffix(base, ".cmake"), strings.HasSuffix(base, ".mk"):
		return true
	}
	return false
}

// nvccFlagRe finds the nvcc flags without which CUDA code that needs them
// does not compile: __device__ lambdas passed to host code, and constexpr
// host functions called from device code. clang's HIP needs neither (it
// accepts both), so they go to cuda_flags only.
var nvccFlagRe = lazyre.New(`(?:^|[\s"'(\[;,=])(--?(?:expt-)?extended-lambda|--?expt-relaxed-constexpr)`)

// flagEnds reports whether a flag that ends at i in data is a whole word
// (the expression cannot say so without taking the byte that follows,
// which may begin the next flag).
func flagEnds(data []byte, i int) bool {
	return i == len(data) || strings.IndexByte(" \t\r\n\"')];,", data[i]) >= 0
}

// nvccFlags are the nvcc flags a starter manifest carries over from the
// project's build files, and the files they were found in.
type nvccFlags struct {
	flags, files []string
}

// nvccFlagsIn returns the flags of nvccFlagRe that the build files (slash
// paths from the reader's root) give, each spelt with two dashes, sorted. Files that
// hipgen generated are not read.
func nvccFlagsIn(reader *fileReader, files []string) (nvccFlags, error) {
	var f nvccFlags
	err := reader.buildFiles(files, func(rel string, data []byte) {
		found := false
		for _, m := range nvccFlagRe.Get().FindAllSubmatchIndex(data, -1) {
			if flagEnds(data, m[3]) {
				f.flags = append(f.flags, "--"+strings.TrimLeft(string(data[m[2]:m[3]]), "-"))
				found = true
			}
		}
		if found {
			f.files = append(f.files, rel)
		}
	})
	if err != nil {
		return nvccFlags{}, err
	}
	slices.Sort(f.flags)
	f.flags = slices.Compact(f.flags)
	return f, nil
}

// write writes the flags as a target's cuda_flags, with where they were
// found.
func (f nvccFlags) write(b *bytes.Buffer) {
	if len(f.flags) == 0 {
		return
	}
	fmt.Fprintf(b, "      // From %s.\n", strings.Join(f.files, ", "))
	writeList(b, "cuda_flags", f.flags)
}

// companionSources returns the C and C++ sources (.cpp, .cc, .cxx, .c)
// that sit beside a project header of hdrs, share its name and have no
// main() (graph.cxx for graph.hxx: the usual home of what such a header
// declares), sorted. known holds the project's files.
func companionSources(files *fileReader, hdrs []string, known map[string]bool) ([]string, error) {
	var out []string
	for _, h := range hdrs {
		stem := strings.TrimSuffix(h, path.Ext(h))
		for _, ext := range []string{".cpp", ".cc", ".cxx", ".c"} {
			c := stem + ext
			if c == h || !known[c] {
				continue
			}
			data, err := files.read(c)
			if err != nil {
				return nil, err
			}
			if !mainRe.Get().Match(data) {
				out = append(out, c)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// linkedHeaders are the CUDA library headers whose functions live in a
// library that a program must link (nvcc links only cudart by itself),
// with that library as the manifest's link field names it. Header-only
// parts (curand_kernel.h, nvtx3) need none, and cuda.h is left out: it is
// as often included for CUDA_VERSION and its types as for the driver API,
// and a build machine without NVIDIA's driver has no libcuda to link.
var linkedHeaders = map[string]string{
	"cublas_v2.h": "cublas", "cublas.h": "cublas", "cublas_api.h": "cublas",
	"cublasLt.h": "cublasLt",
	"curand.h":   "curand",
	"cufft.h":    "cufft", "cufftXt.h": "cufft",
	"cusparse.h": "cusparse", "cusparse_v2.h": "cusparse",
	"cusolverDn.h": "cusolver", "cusolverSp.h": "cusolver", "cusolverRf.h": "cusolver", "cusolver_common.h": "cusolver",
	"nvrtc.h":      "nvrtc",
	"nvToolsExt.h": "nvToolsExt",
	"cudnn.h":      "cudnn",
	"nccl.h":       "nccl",
}

// reach is what a set of sources reaches through #include.
type reach struct {
	headers []string // project headers, slash paths from the root
	libs    []string // libraries to link (linkedHeaders), sorted
}

// reached returns what the sources srcs (slash paths from the root)
// reach through #include, looked up as the translation looks them up
// (incs).
func reached(files *fileReader, srcs, incs []string) (reach, error) {
	var r reach
	all := map[string]bool{}
	for _, f := range srcs {
		hdrs, err := sources.IncludeClosure(files.read, f, incs)
		if err != nil {
			return reach{}, err
		}
		all[f] = true
		for _, h := range hdrs {
			if !all[h] {
				all[h] = true
				r.headers = append(r.headers, h)
			}
		}
	}
	for _, f := range slices.Sorted(maps.Keys(all)) {
		data, err := files.read(f)
		if err != nil {
			return reach{}, err
		}
		for _, inc := range sources.Includes(data) {
			lib, ok := linkedHeaders[inc.Path]
			if !ok || slices.ContainsFunc(sources.IncludeCandidates(f, inc, incs), func(c string) bool { return all[c] }) {
				continue // not a library's, or a file of the project
			}
			r.libs = append(r.libs, lib)
		}
	}
	slices.Sort(r.headers)
	slices.Sort(r.libs)
	r.libs = slices.Compact(r.libs)
	return r, nil
}
