package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/hipgen/hipgen/archdetect"
	"github.com/hipgen/hipgen/manifest"
)

var archCommand = &command{
	name:    "arch",
	summary: "print the GPU architectures each backend will build for",
	usage:   "arch [--backend rocm|cuda|all] [--rocm-arch list] [--cuda-arch list] [--format text|json|cmake|bazel|torch] [--explain] [--check]",
	long: `
Prints, for each backend, the GPU architectures a build would use and where
they came from, e.g. "rocm archs gfx90a,gfx942 (from PYTORCH_ROCM_ARCH)".

Precedence, first match wins:
  1. --rocm-arch / --cuda-arch
  2. the environment: HIPGEN_ROCM_ARCHS, PYTORCH_ROCM_ARCH,
     CMAKE_HIP_ARCHITECTURES, GPU_TARGETS, AMDGPU_TARGETS;
     HIPGEN_CUDA_ARCHS, TORCH_CUDA_ARCH_LIST, CUDAARCHS
  3. the GPUs of this host: KFD sysfs, offload-arch, amdgpu-arch,
     rocm_agent_enumerator, rocminfo; nvidia-smi, nvptx-arch
  4. the manifest's rocm.archs / cuda.archs, when hipgen.jsonnet exists
An explicit setting (1, 2) is never overridden by detection; the value
"native" asks for detection. With nothing to go on the command fails and
says how to set one. --explain lists every source consulted.

Formats: text (the lines above), json, cmake (gfx90a;gfx942 and 80;90),
torch (PYTORCH_ROCM_ARCH "gfx90a gfx942", TORCH_CUDA_ARCH_LIST "8.0;9.0"),
bazel (Starlark lists). With one --backend, cmake and torch print the bare
value; with both, one NAME='value' line per backend.

Exit status 1 when a backend has no architecture or --check finds one the
installed compiler cannot build; 2 for bad flags or spellings.
`,
	flags: archFlags,
}

type archOptions struct {
	backend  string
	format   string
	explain  bool
	check    bool
	detect   bool
	sysroot  string
	rocmArch listFlag
	cudaArch listFlag
}

func archFlags(fs *flag.FlagSet) func(e *env, args []string) int {
	o := &archOptions{}
	fs.StringVar(&o.backend, "backend", "all", "`backend` to resolve: rocm, cuda or all")
	fs.StringVar(&o.format, "format", "text", "output `format`: text, json, cmake, bazel or torch")
	fs.BoolVar(&o.explain, "explain", false, "list every source consulted, in precedence order")
	fs.BoolVar(&o.check, "check", false, "also check that the installed hipcc/nvcc builds every chosen arch")
	fs.BoolVar(&o.detect, "detect", true, "look at this host's GPUs when nothing is set (false: explicit settings and manifest only)")
	fs.StringVar(&o.sysroot, "sysroot", "", "read /sys under `dir` (a container that mounts the host's /sys elsewhere)")
	fs.Var(&o.rocmArch, "rocm-arch", "AMD `archs`, comma separated (overrides environment, detection and manifest)")
	fs.Var(&o.cudaArch, "cuda-arch", "NVIDIA `archs`, comma separated (overrides environment, detection and manifest)")
	return func(e *env, args []string) int {
		if len(args) != 0 {
			return e.errorf(exitUsage, "arch: takes no arguments, got %q (use --rocm-arch or --cuda-arch)", args[0])
		}
		return runArch(e, o)
	}
}

// archResult is one backend's answer, as printed by every format.
type archResult struct {
	Backend   archdetect.Backend `json:"backend"`
	Archs     []string           `json:"archs"`
	Source    string             `json:"source,omitempty"`
	Line      string             `json:"line,omitempty"`
	Error     string             `json:"error,omitempty"`
	Toolchain string             `json:"toolchain,omitempty"`
	Steps     []archdetect.Step  `json:"steps"`
}

func runArch(e *env, o *archOptions) int {
	backends, ok := map[string][]archdetect.Backend{
		"all": {archdetect.ROCm, archdetect.CUDA}, "rocm": {archdetect.ROCm}, "cuda": {archdetect.CUDA},
	}[o.backend]
	if !ok {
		return e.errorf(exitUsage, "arch: --backend %q: want rocm, cuda or all", o.backend)
	}
	switch o.format {
	case "text", "json", "cmake", "bazel", "torch":
	default:
		return e.errorf(exitUsage, "arch: --format %q: want text, json, cmake, bazel or torch", o.format)
	}
	h, code := archHost(e, o)
	if code != exitOK {
		return code
	}
	defaults, manifestNote, code := manifestArchs(e)
	if code != exitOK {
		return code
	}
	code = exitOK
	var results []archResult
	for _, b := range backends {
		r, c := resolveOne(e, h, o, b, defaults[b], manifestNote)
		results = append(results, r)
		code = max(code, c)
	}
	if err := printArch(e, o, results); err != nil {
		return e.errorf(exitUsage, "arch: %v", err)
	}
	for _, r := range results {
		if r.Error != "" {
			fmt.Fprintf(e.Stderr, "hipgen: arch: %s\n", r.Error)
		}
	}
	return code
}

// archHost is the real machine seen through e, optionally with /sys
// elsewhere.
func archHost(e *env, o *archOptions) (archdetect.Host, int) {
	h := archdetect.RealHost()
	h.Getenv = e.Getenv
	if o.sysroot != "" {
		dir := o.sysroot
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(e.Dir, dir)
		}
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return h, e.errorf(exitUsage, "arch: --sysroot %s: not a directory", o.sysroot)
		}
		h.Root = dir
	}
	return h, exitOK
}

// manifestArchs returns the manifest's defaults when hipgen.jsonnet exists;
// without one, arch still works from flags, environment and detection.
func manifestArchs(e *env) (map[archdetect.Backend][]string, string, int) {
	if _, err := os.Stat(filepath.Join(e.Dir, manifest.FileName)); err != nil {
		return nil, "no " + manifest.FileName + " in this directory", exitOK
	}
	p, code := loadProject(e)
	if p == nil {
		return nil, "", code
	}
	return map[archdetect.Backend][]string{archdetect.ROCm: p.ROCm.Archs, archdetect.CUDA: p.CUDA.Archs}, "", exitOK
}

func resolveOne(e *env, h archdetect.Host, o *archOptions, b archdetect.Backend, defaults []string, manifestNote string) (archResult, int) {
	flagVals := o.rocmArch
	if b == archdetect.CUDA {
		flagVals = o.cudaArch
	}
	c, err := archdetect.Resolve(h, archdetect.Request{Backend: b, Flag: flagVals, Defaults: defaults, NoDetect: !o.detect})
	for i := range c.Steps {
		s := &c.Steps[i]
		if manifestNote != "" && s.Source == archdetect.ManifestSource && s.Note == "none set" {
			s.Note = manifestNote
		}
	}
	r := archResult{Backend: b, Archs: c.Archs, Steps: c.Steps}
	if r.Archs == nil {
		r.Archs = []string{}
	}
	if err != nil {
		r.Error = err.Error()
		if errors.Is(err, archdetect.ErrNoArch) {
			return r, exitFailures
		}
		return r, exitUsage
	}
	r.Source, r.Line = c.Source, c.Line()
	if o.check {
		tc, terr := archdetect.FindToolchain(h, b)
		if terr == nil {
			terr = archdetect.CheckToolchain(h, b, c.Archs)
		}
		if terr != nil {
			r.Error = terr.Error()
			return r, exitFailures
		}
		r.Toolchain = tc.String()
	}
	return r, exitOK
}

func printArch(e *env, o *archOptions, results []archResult) error {
	switch o.format {
	case "json":
		out, err := json.MarshalIndent(results, "", "  ")
		if err != nil {
			return err
		}
		fmt.Fprintf(e.Stdout, "%s\n", out)
		return nil
	case "text":
		for _, r := range results {
			if o.explain {
				printSteps(e.Stdout, r)
			}
			if r.Line != "" {
				fmt.Fprintln(e.Stdout, r.Line)
			}
			if r.Toolchain != "" {
				fmt.Fprintf(e.Stdout, "%s archs build with %s\n", r.Backend, r.Toolchain)
			}
		}
		return nil
	}
	// Machine formats keep stdout to the value; the explanation goes to
	// stderr so $(hipgen arch --format cmake --explain) still works.
	for _, r := range results {
		if o.explain {
			printSteps(e.Stderr, r)
			if r.Line != "" {
				fmt.Fprintln(e.Stderr, r.Line)
			}
		}
		if r.Error != "" {
			continue
		}
		fmt.Fprintln(e.Stdout, formatArchs(o.format, r.Backend, r.Archs, len(results) > 1))
	}
	return nil
}

func printSteps(w io.Writer, r archResult) {
	fmt.Fprintf(w, "%s, sources in precedence order:\n", r.Backend)
	for i, s := range r.Steps {
		var b strings.Builder
		fmt.Fprintf(&b, "  %2d. %s", i+1, s.Source)
		if s.Value != "" {
			fmt.Fprintf(&b, "=%q", s.Value)
		}
		var what []string
		if len(s.Archs) > 0 {
			what = append(what, strings.Join(s.Archs, ","))
		}
		if s.Note != "" {
			what = append(what, s.Note)
		}
		if len(what) > 0 {
			b.WriteString(": " + strings.Join(what, "; "))
		}
		if s.Used {
			b.WriteString("  <- used")
		}
		fmt.Fprintln(w, b.String())
	}
	if r.Line == "" {
		fmt.Fprintf(w, "%s archs: none chosen (the error below says how to set one)\n", r.Backend)
	}
}

// formatArchs spells archs the way each ecosystem's variable wants them.
func formatArchs(format string, b archdetect.Backend, archs []string, named bool) string {
	var vals []string
	for _, a := range archs {
		if b == archdetect.CUDA {
			num := strings.TrimPrefix(a, "sm_")
			if format == "torch" {
				num = torchSpelling(num)
			}
			vals = append(vals, num)
		} else {
			vals = append(vals, a)
		}
	}
	var name, value string
	switch format {
	case "cmake":
		name = map[archdetect.Backend]string{archdetect.ROCm: "CMAKE_HIP_ARCHITECTURES", archdetect.CUDA: "CMAKE_CUDA_ARCHITECTURES"}[b]
		value = strings.Join(vals, ";")
	case "torch":
		name = map[archdetect.Backend]string{archdetect.ROCm: "PYTORCH_ROCM_ARCH", archdetect.CUDA: "TORCH_CUDA_ARCH_LIST"}[b]
		sep := ";"
		if b == archdetect.ROCm {
			sep = " "
		}
		value = strings.Join(vals, sep)
	case "bazel":
		// Canonical arch names are [a-z0-9_:+-], so a quoted list is a
		// complete Starlark expression; no BUILD file is being edited.
		var q []string
		for _, a := range archs {
			q = append(q, strconv.Quote(a))
		}
		name, value = strings.ToUpper(string(b))+"_ARCHS", "["+strings.Join(q, ", ")+"]"
		if named {
			return name + " = " + value
		}
		return value
	}
	if !named {
		return value
	}
	return name + "='" + value + "'"
}

// torchSpelling turns "90a" into "9.0a" and "100f" into "10.0f".
func torchSpelling(num string) string {
	suffix := ""
	if n := len(num); n > 0 && (num[n-1] == 'a' || num[n-1] == 'f') {
		num, suffix = num[:n-1], num[n-1:]
	}
	if len(num) < 2 {
		return num + suffix
	}
	return num[:len(num)-1] + "." + num[len(num)-1:] + suffix
}
