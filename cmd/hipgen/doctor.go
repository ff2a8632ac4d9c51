package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/hipgen/hipgen/archdetect"
	"github.com/hipgen/hipgen/manifest"
)

var doctorCommand = &command{
	name:    "doctor",
	summary: "list toolchains, their versions and supported architectures",
	usage:   "doctor [--format text|json]",
	long: `
Lists the tools hipgen builds with, each with its path and version, and for
the GPU compilers the architectures they can build for (probed by compiling
an empty file, so the list is what a build would accept): hipcc, clang, nvcc,
cmake, bazel, python3 and PyTorch. It also shows the GPUs found on this host,
HIP-CPU (HIP_CPU_ROOT), which runs HIP code on the CPU, and hipgen-jsonnet,
which evaluates the manifest for hipgen.

Exit status 1 when neither hipcc nor nvcc works (a bare clang does not
count: builds use hipcc and nvcc).
`,
	flags: func(fs *flag.FlagSet) func(e *env, args []string) int {
		format := fs.String("format", "text", "output `format`: text or json")
		return func(e *env, args []string) int {
			if len(args) != 0 {
				return e.errorf(exitUsage, "doctor: takes no arguments")
			}
			if *format != "text" && *format != "json" {
				return e.errorf(exitUsage, "doctor: --format %q: want text or json", *format)
			}
			return runDoctor(e, *format)
		}
	},
}

// toolReport is one line of the doctor's list.
type toolReport struct {
	Name    string `json:"name"`
	Found   bool   `json:"found"`
	Path    string `json:"path,omitempty"`
	Version string `json:"version,omitempty"`
	// Archs are the GPU architectures it builds for (compilers only).
	Archs []string `json:"archs,omitempty"`
	Note  string   `json:"note,omitempty"`
}

type doctorReport struct {
	Tools []toolReport         `json:"tools"`
	GPUs  map[string]gpuReport `json:"gpus"`
}

type gpuReport struct {
	Archs []string          `json:"archs"`
	Steps []archdetect.Step `json:"steps"`
}

// doctorProbes run in parallel (the HIP probe compiles several times) and
// report in this order.
var doctorProbes = []func(h archdetect.Host) toolReport{
	func(h archdetect.Host) toolReport { return compilerReport(h, overridden(h, "hipcc", "HIPGEN_HIPCC")) },
	func(h archdetect.Host) toolReport { return compilerReport(h, findClang(h)) },
	func(h archdetect.Host) toolReport { return compilerReport(h, overridden(h, "nvcc", "HIPGEN_NVCC")) },
	func(h archdetect.Host) toolReport {
		return versionReport(h, "cmake", `cmake version (\S+)`, "--version")
	},
	func(h archdetect.Host) toolReport { return versionReport(h, "bazel", `bazel (\S+)`, "--version") },
	func(h archdetect.Host) toolReport { return versionReport(h, "python3", `Python (\S+)`, "--version") },
	torchReport,
	hipCPUReport,
	jsonnetReport,
}

// jsonnetReport names the manifest's evaluator, hipgen-jsonnet.
func jsonnetReport(archdetect.Host) toolReport {
	r := toolReport{Name: manifest.HelperName}
	p, err := manifest.FindHelper()
	if err != nil {
		r.Note = err.Error()
		return r
	}
	r.Found, r.Path, r.Version = true, p, "(evaluates "+manifest.FileName+")"
	return r
}

func runDoctor(e *env, format string) int {
	h := archdetect.RealHost()
	h.Getenv = e.Getenv
	rep := doctorReport{Tools: make([]toolReport, len(doctorProbes)), GPUs: map[string]gpuReport{}}
	var wg sync.WaitGroup
	for i, probe := range doctorProbes {
		wg.Go(func() { rep.Tools[i] = probe(h) })
	}
	wg.Wait()
	for _, b := range []archdetect.Backend{archdetect.ROCm, archdetect.CUDA} {
		archs, steps := archdetect.Detect(h, b)
		if archs == nil {
			archs = []string{}
		}
		rep.GPUs[string(b)] = gpuReport{Archs: archs, Steps: steps}
	}
	if format == "json" {
		out, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return e.errorf(exitUsage, "doctor: %v", err)
		}
		fmt.Fprintf(e.Stdout, "%s\n", out)
	} else {
		printDoctor(e.Stdout, rep)
	}
	// hipcc and nvcc are what builds use; a bare clang does not count.
	if hipcc, nvcc := rep.Tools[0], rep.Tools[2]; len(hipcc.Archs) > 0 || len(nvcc.Archs) > 0 {
		return exitOK
	}
	return e.errorf(exitFailures, "doctor: no working GPU compiler: install ROCm's hipcc or the CUDA toolkit's nvcc")
}

func printDoctor(w io.Writer, rep doctorReport) {
	for _, t := range rep.Tools {
		var b strings.Builder
		fmt.Fprintf(&b, "%-8s ", t.Name)
		if t.Found {
			fmt.Fprintf(&b, "%s  %s", t.Version, t.Path)
		} else {
			b.WriteString("not found")
		}
		if t.Note != "" {
			fmt.Fprintf(&b, " (%s)", t.Note)
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
		if len(t.Archs) > 0 {
			fmt.Fprintf(w, "%-8s archs: %s\n", "", strings.Join(t.Archs, " "))
		}
	}
	for _, b := range []string{"rocm", "cuda"} {
		g := rep.GPUs[b]
		if len(g.Archs) > 0 {
			for _, s := range g.Steps {
				if len(s.Archs) > 0 {
					fmt.Fprintf(w, "%-8s %s GPUs: %s (from %s)\n", "gpus", b, strings.Join(g.Archs, " "), s.Source)
					break
				}
			}
			continue
		}
		var why []string
		for _, s := range g.Steps {
			why = append(why, s.Source+": "+s.Note)
		}
		fmt.Fprintf(w, "%-8s %s GPUs: none (%s)\n", "gpus", b, strings.Join(why, "; "))
	}
}

// compilerReport probes a GPU compiler through archdetect, so doctor
// shows exactly the supported set the arch check uses.
func compilerReport(h archdetect.Host, name string) toolReport {
	tc, err := archdetect.ProbeCompiler(h, name)
	r := toolReport{Name: filepath.Base(name), Found: tc.Path != "", Path: tc.Path, Version: tc.Version, Archs: tc.Archs}
	if tc.Detail != "" {
		r.Version += " (" + tc.Detail + ")"
	}
	if err != nil && r.Found {
		r.Note = err.Error()
	}
	return r
}

// overridden is the compiler builds use: $HIPGEN_HIPCC or $HIPGEN_NVCC
// when set, as 'hipgen build' does.
func overridden(h archdetect.Host, name, variable string) string {
	if v := h.Getenv(variable); v != "" {
		return v
	}
	return name
}

// findClang prefers plain clang, then the newest versioned one
// (Debian installs clang-15 without a clang link).
func findClang(h archdetect.Host) string {
	for _, name := range []string{"clang", "clang-22", "clang-21", "clang-20", "clang-19", "clang-18", "clang-17", "clang-16", "clang-15", "clang-14"} {
		if _, err := h.LookPath(name); err == nil {
			return name
		}
	}
	return "clang"
}

func versionReport(h archdetect.Host, name, pattern string, args ...string) toolReport {
	r := toolReport{Name: name}
	path, err := h.LookPath(name)
	if err != nil {
		return r
	}
	r.Found, r.Path = true, path
	out, err := h.Run(path, args...)
	if err != nil {
		r.Note = "failed: " + err.Error()
		return r
	}
	if m := regexp.MustCompile(pattern).FindStringSubmatch(string(out)); m != nil {
		r.Version = m[1]
	} else {
		r.Note = "unrecognised version output"
	}
	return r
}

// torchScript prints what PyTorch was built for: version, HIP and CUDA
// versions, and the archs its kernels were compiled for.
const torchScript = `import torch
print(torch.__version__)
print(torch.version.hip or "-")
print(torch.version.cuda or "-")
print(" ".join(torch.cuda.get_arch_list()) or "-")
`

func torchReport(h archdetect.Host) toolReport {
	r := toolReport{Name: "torch"}
	py, err := h.LookPath("python3")
	if err != nil {
		r.Note = "no python3"
		return r
	}
	out, err := h.Run(py, "-c", torchScript)
	if err != nil {
		r.Note = "python3 cannot import torch"
		if strings.Contains(err.Error(), "ModuleNotFoundError") {
			r.Note = "not installed for " + py
		}
		return r
	}
	f := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(f) < 4 {
		r.Note = "unrecognised output"
		return r
	}
	r.Found, r.Path, r.Version = true, py, f[0]
	if f[1] != "-" {
		r.Version += " (HIP " + f[1] + ")"
	}
	if f[2] != "-" {
		r.Version += " (CUDA " + f[2] + ")"
	}
	if f[3] != "-" {
		r.Archs = strings.Fields(f[3])
	}
	return r
}

func hipCPUReport(h archdetect.Host) toolReport {
	r := toolReport{Name: "hip-cpu"}
	root := h.Getenv("HIP_CPU_ROOT")
	if root == "" {
		r.Note = "HIP_CPU_ROOT not set; runs HIP code on the CPU with 64-wide wavefronts"
		return r
	}
	r.Found, r.Path, r.Version = true, root, "header-only"
	return r
}
