package builder

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/hipgen/hipgen/internal/textdist"
	"github.com/hipgen/hipgen/model"
)

// OutDir is where build outputs go, relative to the project root: one
// folder per platform below it.
const OutDir = "build/hipgen"

// hipCPUCompatRel is where the HIP-CPU compatibility header is written.
const hipCPUCompatRel = OutDir + "/hip-cpu/include/hipgen_hip_cpu_compat.h"

// actionKind is what an action does.
type actionKind string

const (
	actCompile actionKind = "CC"
	actArchive actionKind = "AR"
	actLink    actionKind = "LD"
)

// action is one step of the build graph: a single tool run producing a
// single output file. The output is a pure function of the key (tool,
// arguments, input contents and, for compiles, the headers reached).
type action struct {
	kind     actionKind
	tc       *Toolchain
	target   *model.Target
	display  string   // the user's file or target shown in progress
	tool     string   // absolute path of the program run
	args     []string // with "$out" and "$dep" standing for the output and depfile
	inputs   []string // root-relative files whose content is part of the key
	output   string   // root-relative output path
	perm     uint32
	depfile  bool
	deps     []*action
	smap     *sourceMap // maps generated files back to the user's, for diagnostics
	hostRoot bool       // key includes the project root (debug info embeds it)
	ok       bool       // set when the output was produced, after the run
}

// Artifact is one library, binary or test a build produced.
type Artifact struct {
	Platform Platform   `json:"platform"`
	Target   string     `json:"target"`
	Kind     model.Kind `json:"kind"`
	Path     string     `json:"path"`
	// Built is false when a step failed or was skipped; Path may then
	// hold a stale file from an earlier build.
	Built bool `json:"built"`
}

// buildable reports whether hipgen compiles k itself; Python and Torch
// extensions are not (there is no setup.py generator yet).
func buildable(k model.Kind) bool {
	return k == model.KindLibrary || k == model.KindBinary || k == model.KindTest
}

// SelectTargets returns the named targets (all buildable ones when names is
// empty) and their dependencies, dependencies first, in manifest order.
func SelectTargets(p *model.Project, names []string, only func(*model.Target) bool) ([]*model.Target, error) {
	var roots []*model.Target
	if len(names) == 0 {
		for _, t := range p.Targets {
			if buildable(t.Kind) && (only == nil || only(t)) {
				roots = append(roots, t)
			}
		}
	}
	for _, n := range names {
		t := p.Target(n)
		if t == nil {
			var all []string
			for _, x := range p.Targets {
				all = append(all, x.Name)
			}
			msg := fmt.Sprintf("no target named %q in %s", n, p.ManifestFile)
			if s := textdist.Closest(n, all); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			return nil, fmt.Errorf("%s", msg)
		}
		if !buildable(t.Kind) {
			return nil, fmt.Errorf("target %q is a %s: hipgen does not build extensions yet (no setup.py generator); build it with the project's setup.py", n, t.Kind)
		}
		roots = append(roots, t)
	}
	seen := map[string]bool{}
	var out []*model.Target
	for _, r := range roots {
		for _, t := range append(p.DepsClosure(r), r) {
			if !seen[t.Name] && buildable(t.Kind) {
				seen[t.Name] = true
				out = append(out, t)
			}
		}
	}
	return out, nil
}

// compilable reports whether a source file is a translation unit.
func compilable(src string) bool {
	switch path.Ext(src) {
	case ".cu", ".hip", ".cpp", ".cc", ".cxx", ".c":
		return true
	}
	return false
}

// planner builds the action graph for one toolchain.
type planner struct {
	p       *model.Project
	tc      *Toolchain
	srcRoot string // where this platform's sources live: "" (CUDA) or the translated tree
	outPath func(string) string
	libs    map[string]*action // library name -> archive action
	smap    *sourceMap
}

func (pl *planner) dir() string { return OutDir + "/" + string(pl.tc.Platform) }

// source returns the file this platform compiles for the user's src.
func (pl *planner) source(src string) string {
	if pl.srcRoot == "" {
		return src
	}
	return path.Join(pl.srcRoot, pl.outPath(src))
}

func (pl *planner) includeFlags(t *model.Target) []string {
	var dirs []string
	for _, d := range append(pl.p.DepsClosure(t), t) {
		dirs = append(dirs, d.Includes...)
	}
	var out []string
	seen := map[string]bool{}
	for _, d := range dirs {
		for _, x := range pl.includeDirs(d) {
			if !seen[x] {
				seen[x] = true
				out = append(out, "-I"+x)
			}
		}
	}
	return out
}

// includeDirs maps one manifest include directory to the directories the
// compiler searches: the translated mirror first, then the original, so
// headers hipgen did not translate are still found.
func (pl *planner) includeDirs(d string) []string {
	if pl.srcRoot == "" {
		return []string{d}
	}
	return []string{path.Join(pl.srcRoot, d), d}
}

func (pl *planner) compileAction(t *model.Target, src string) *action {
	in := pl.source(src)
	obj := path.Join(pl.dir(), "obj", t.Name, src+".o")
	tc := pl.tc
	var args []string
	cxx := path.Ext(src) != ".cu" && path.Ext(src) != ".hip"
	switch tc.Platform {
	case ROCm:
		args = append(args, tc.archFlags()...)
		if cxx {
			args = append(args, t.CXXFlags...)
		}
		args = append(args, t.HIPFlags...)
	case CUDA:
		if tc.HostCompiler != "" {
			args = append(args, "-ccbin", tc.HostCompiler)
		}
		args = append(args, tc.archFlags()...)
		if cxx {
			for _, f := range t.CXXFlags {
				args = append(args, "-Xcompiler="+f)
			}
		} else {
			args = append(args, t.CUDAFlags...)
		}
	case HIPCPU:
		args = append(args, "-x", "c++")
		args = append(args, tc.hipCPUFlags(hipCPUCompatRel)...)
		args = append(args, t.CXXFlags...)
	}
	args = append(args, pl.includeFlags(t)...)
	backend := pl.p.CUDA.Defines
	if tc.Platform != CUDA {
		backend = pl.p.ROCm.Defines // HIP-CPU compiles the HIP translation too
	}
	for _, d := range append(slices.Clip(backend), t.Defines...) {
		args = append(args, "-D"+d)
	}
	args = append(args, "-MD", "-MF", "$dep", "-c", in, "-o", "$out")
	a := &action{
		kind: actCompile, tc: tc, target: t, display: src, tool: tc.Compiler,
		args: args, inputs: []string{in}, output: obj, depfile: true, perm: 0o644,
	}
	a.smap = pl.smap
	for _, f := range args {
		if strings.HasPrefix(f, "-g") || strings.HasPrefix(f, "-Xcompiler=-g") {
			a.hostRoot = true
		}
	}
	return a
}

// targetActions adds t's compile, archive and link actions to out.
func (pl *planner) targetActions(t *model.Target, out []*action) []*action {
	var objs []*action
	for _, src := range t.Srcs {
		if compilable(src) {
			a := pl.compileAction(t, src)
			objs = append(objs, a)
			out = append(out, a)
		}
	}
	if len(objs) == 0 {
		return out
	}
	var inputs []string
	for _, o := range objs {
		inputs = append(inputs, o.output)
	}
	if t.Kind == model.KindLibrary {
		a := &action{
			kind: actArchive, tc: pl.tc, target: t, display: t.Name, tool: pl.tc.Archiver,
			args: append([]string{"rcsD", "$out"}, inputs...), inputs: inputs,
			output: path.Join(pl.dir(), "lib"+t.Name+".a"), deps: objs, perm: 0o644,
		}
		pl.libs[t.Name] = a
		return append(out, a)
	}
	return append(out, pl.linkAction(t, objs, inputs))
}

func (pl *planner) linkAction(t *model.Target, objs []*action, inputs []string) *action {
	deps := slices.Clone(objs)
	closure := pl.p.DepsClosure(t)
	var linkFlags []string
	// Dependents before their dependencies, as static linking needs.
	for i := len(closure) - 1; i >= 0; i-- {
		if lib := pl.libs[closure[i].Name]; lib != nil {
			inputs = append(inputs, lib.output)
			deps = append(deps, lib)
		}
	}
	linkFlags = append(linkFlags, t.Link...)
	for i := len(closure) - 1; i >= 0; i-- {
		linkFlags = append(linkFlags, closure[i].Link...)
	}
	var args []string
	switch pl.tc.Platform {
	case ROCm:
		args = append(args, pl.tc.archFlags()...)
	case CUDA:
		if pl.tc.HostCompiler != "" {
			args = append(args, "-ccbin", pl.tc.HostCompiler)
		}
		args = append(args, pl.tc.archFlags()...)
	}
	args = append(args, "-o", "$out")
	args = append(args, inputs...)
	for _, f := range model.LinkFlags(linkFlags, pl.tc.Platform != CUDA) {
		if pl.tc.Platform == CUDA && strings.HasPrefix(f, "-") && !strings.HasPrefix(f, "-l") && !strings.HasPrefix(f, "-L") {
			// nvcc knows -l and -L; other flags (-pthread, -Wl,...) are
			// the host compiler's, which does nvcc's final link.
			f = "-Xcompiler=" + f
		}
		args = append(args, f)
	}
	if pl.tc.Platform == HIPCPU {
		args = append(args, "-pthread", "-ltbb")
	}
	return &action{
		kind: actLink, tc: pl.tc, target: t, display: t.Name, tool: pl.tc.Compiler,
		args: args, inputs: inputs, output: path.Join(pl.dir(), t.Name), deps: deps, perm: 0o755,
	}
}
