package builder

import (
	"context"
	_ "embed"
	"fmt"
	"io"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"time"

	"github.com/hipgen/hipgen/diag"
	"github.com/hipgen/hipgen/model"
)

// Translator is the part of package sources the builder needs. It is a
// struct of functions, filled by the CLI, so the builder stays testable
// and independent of the translator's options.
type Translator struct {
	// Translate converts one file; launch is "chevron" or "ggl".
	Translate func(name string, src []byte, launch string) ([]byte, []diag.Diagnostic)
	// OutputPath names a file's translated path ("csrc/a.cu" -> "csrc/a.hip").
	OutputPath func(src string) string
	// IncludeClosure lists the project-local headers a file reaches.
	IncludeClosure func(read func(path string) ([]byte, error), file string, includeDirs []string) ([]string, error)
}

// Options is one build.
type Options struct {
	Project *model.Project
	// Targets are the targets named on the command line; empty means all.
	Targets []string
	// Only, when set, further restricts the default selection (hipgen test
	// builds only test targets and what they need).
	Only       func(*model.Target) bool
	Toolchains []*Toolchain
	Jobs       int
	KeepGoing  bool
	Cache      *Cache
	Runner     Runner
	Translator Translator
	Progress   Progress
	// Environ is the environment compilers start from.
	Environ []string
	// Commands, when set, receives each tool's command line before it runs.
	Commands io.Writer
}

// Result is what a build did.
type Result struct {
	Artifacts []Artifact
	Failures  []Failure
	// Diagnostics are the translator's findings (warnings and errors).
	Diagnostics []diag.Diagnostic
	// Invocations counts compiler, archiver and linker runs; zero on a
	// no-op or fully cached build.
	Invocations int64
	// Actions counts planned steps; Cached those restored from the cache
	// or already up to date; Skipped those not run after a failure.
	Actions int
	Built   int
	Cached  int
	Skipped int
	Elapsed time.Duration
}

// OK reports whether the build produced everything it planned.
func (r *Result) OK() bool { return len(r.Failures) == 0 }

//go:embed hip_cpu_compat.h
var hipCPUCompat []byte

// Build translates (for HIP platforms) and compiles the selected targets
// for every toolchain. Setup problems (unknown target, unwritable tree)
// return an error; compile failures are listed in the Result.
func Build(ctx context.Context, o Options) (*Result, error) {
	start := time.Now()
	targets, err := SelectTargets(o.Project, o.Targets, o.Only)
	if err != nil {
		return nil, err
	}
	res := &Result{}
	x := &executor{
		root: o.Project.Root, cache: o.Cache, runner: o.Runner, environ: o.Environ,
		jobs: o.Jobs, keepGoing: o.KeepGoing, progress: o.Progress, commands: o.Commands, hasher: newFileHasher(), start: start,
	}
	var actions []*action
	var blocked []Failure
	products := map[int]*action{}
	for _, tc := range o.Toolchains {
		pl, fail, err := preparePlatform(o, tc, targets, res)
		if err != nil {
			return nil, err
		}
		if fail != nil {
			blocked = append(blocked, *fail)
			continue
		}
		for _, t := range targets {
			actions = pl.targetActions(t, actions)
		}
		for _, t := range targets {
			if a := pl.output(t, actions); a != nil {
				products[len(res.Artifacts)] = a
				res.Artifacts = append(res.Artifacts, Artifact{Platform: tc.Platform, Target: t.Name, Kind: t.Kind, Path: a.output})
			}
		}
	}
	diag.Sort(res.Diagnostics)
	if len(blocked) > 0 && !o.KeepGoing {
		res.Failures = blocked
		res.Elapsed = time.Since(start)
		return res, nil
	}
	x.run(ctx, actions)
	res.Failures = append(blocked, x.failures...)
	for i, a := range products {
		res.Artifacts[i].Built = a.ok
	}
	slices.SortFunc(res.Failures, func(a, b Failure) int {
		if a.Platform != b.Platform {
			return cmpString(string(a.Platform), string(b.Platform))
		}
		return cmpString(a.File, b.File)
	})
	res.Invocations = x.invocations.Load()
	res.Actions = len(actions)
	res.Built = int(x.built.Load())
	res.Cached = int(x.cached.Load())
	res.Skipped = int(x.skipped.Load())
	if x.cache.misses.Load() > 0 {
		if _, err := x.cache.Trim(); err != nil {
			return res, err
		}
	}
	res.Elapsed = time.Since(start)
	return res, nil
}

// preparePlatform returns the planner for one toolchain, after writing the
// translated tree its sources come from (ROCm and HIP-CPU). Translation
// errors stop this platform only: they come back as a Failure, and the
// other platforms still build.
func preparePlatform(o Options, tc *Toolchain, targets []*model.Target, res *Result) (*planner, *Failure, error) {
	pl := &planner{p: o.Project, tc: tc, outPath: func(s string) string { return s }, libs: map[string]*action{}}
	if tc.Platform == CUDA {
		return pl, nil, nil
	}
	dir, launch := o.Project.Translate.Out, o.Project.Translate.Launch
	if dir == "" {
		dir = "hip"
	}
	if tc.Platform == HIPCPU {
		// HIP-CPU has no <<<>>>: it needs hipLaunchKernelGGL, so it gets a
		// tree of its own.
		dir, launch = OutDir+"/hip-cpu/src", "ggl"
		if _, err := WriteGenerated(o.Project.Root, hipCPUCompatRel, hipCPUCompat, WriteOptions{}); err != nil {
			return nil, nil, err
		}
	}
	files, diags, err := translateTree(o.Project, targets, o.Translator, dir, launch)
	res.Diagnostics = appendNew(res.Diagnostics, diags)
	if err != nil {
		return nil, nil, err
	}
	if diag.HasErrors(diags) {
		msg := "the translation has errors (listed above); nothing was compiled for " + string(tc.Platform)
		if !o.KeepGoing {
			msg += "; --keep-going builds the other backends"
		}
		return nil, &Failure{Platform: tc.Platform, File: dir, Message: msg}, nil
	}
	pl.srcRoot, pl.outPath, pl.smap = dir, o.Translator.OutputPath, newSourceMap(o.Project.Root, files)
	return pl, nil, nil
}

// appendNew adds the diagnostics not already in ds: the ROCm and HIP-CPU
// trees translate the same files and report the same findings.
func appendNew(ds, more []diag.Diagnostic) []diag.Diagnostic {
	for _, d := range more {
		if !slices.Contains(ds, d) {
			ds = append(ds, d)
		}
	}
	return ds
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// output returns the action producing t's final file on this platform.
func (pl *planner) output(t *model.Target, actions []*action) *action {
	if a := pl.libs[t.Name]; a != nil {
		return a
	}
	for _, a := range actions {
		if a.kind == actLink && a.target == t && a.tc == pl.tc {
			return a
		}
	}
	return nil
}

// translateTree writes the translated sources and headers of targets under
// dir, rewriting only files whose translation changed so compilers and
// the cache see stable inputs. It returns generated path -> user's path.
func translateTree(p *model.Project, targets []*model.Target, tr Translator, dir, launch string) (map[string]string, []diag.Diagnostic, error) {
	if tr.Translate == nil || tr.OutputPath == nil {
		return nil, nil, fmt.Errorf("no translator configured")
	}
	read := func(rel string) ([]byte, error) {
		return os.ReadFile(filepath.Join(p.Root, filepath.FromSlash(rel)))
	}
	set := map[string]bool{}
	for _, t := range targets {
		var incs []string
		for _, d := range append(p.DepsClosure(t), t) {
			incs = append(incs, d.Includes...)
		}
		for _, f := range append(slices.Clone(t.Srcs), t.Hdrs...) {
			set[f] = true
			if tr.IncludeClosure == nil || !compilable(f) {
				continue
			}
			hdrs, err := tr.IncludeClosure(read, f, incs)
			if err != nil {
				return nil, nil, err
			}
			for _, h := range hdrs {
				set[h] = true
			}
		}
	}
	files := map[string]string{}
	var diags []diag.Diagnostic
	for _, f := range slices.Sorted(maps.Keys(set)) {
		src, err := read(f)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", f, err)
		}
		out, ds := tr.Translate(f, src, launch)
		diags = append(diags, ds...)
		gen := path.Join(dir, tr.OutputPath(f))
		if _, err := WriteGenerated(p.Root, gen, out, WriteOptions{}); err != nil {
			return nil, nil, err
		}
		files[gen] = f
	}
	return files, diags, nil
}
