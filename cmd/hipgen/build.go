package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os/exec"
	"runtime"
	"strconv"
	"strings"

	"github.com/hipgen/hipgen/archdetect"
	"github.com/hipgen/hipgen/builder"
	"github.com/hipgen/hipgen/diag"
	"github.com/hipgen/hipgen/internal/cachedir"
	"github.com/hipgen/hipgen/internal/lazyre"
	"github.com/hipgen/hipgen/model"
	"github.com/hipgen/hipgen/sources"
)

var buildCommand = &command{
	name:    "build",
	summary: "compile every target for the chosen backends",
	usage:   "build [flags] [targets...]",
	long: `
Translates the CUDA sources into the HIP tree (translate.out), then compiles
the named targets (default: every library, binary and test) and their
dependencies with hipcc (--offload-arch per arch, HIP_PLATFORM=amd) and
nvcc (-gencode per arch) straight from the manifest, without CMake or Bazel.
Outputs go to build/hipgen/<backend>/: lib<name>.a, <binary>, <test>, and
obj/ for object files. Python and Torch extensions are not built: there is
no setup.py generator yet, so the project's own setup.py builds them.

Architectures come from --rocm-arch/--cuda-arch, the environment
(PYTORCH_ROCM_ARCH, TORCH_CUDA_ARCH_LIST, ...), the GPUs found on this
machine, then the manifest; the choice is printed.

Every compile, archive and link goes through a content-addressed cache
keyed by the compiler's path and version, every flag, the arch list and
the content of the source and every header the compiler reported reading.
A rebuild with nothing changed runs no compiler. The cache lives in
$HIPGEN_CACHE_DIR, else $XDG_CACHE_HOME/hipgen, else ~/.cache/hipgen, so
removing build/ keeps it; it is trimmed to --cache-max (HIPGEN_CACHE_MAX,
default 5G) least recently used first. 'hipgen clean --cache' empties it.

Compiler messages about generated .hip files point at the user's .cu lines.
Exit status 1 when a step fails, 2 for usage errors or a missing compiler.
`,
	flags: func(fs *flag.FlagSet) func(e *env, args []string) int {
		var f buildFlags
		f.register(fs)
		return func(e *env, args []string) int {
			s, code := setupBuild(context.Background(), e, &f, args, nil)
			if s == nil {
				return code
			}
			defer s.opts.Progress.Close()
			res, code := s.build(context.Background(), e)
			if res == nil {
				return code
			}
			s.printStats(e, res)
			return code
		}
	},
}

// buildFlags are the flags 'hipgen build' and 'hipgen test' share.
type buildFlags struct {
	backend   string
	jobs      int
	keepGoing bool
	json      bool
	stats     bool
	cacheMax  string
	rocmArch  listFlag
	cudaArch  listFlag
	commands  bool
}

type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

func (f *buildFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.backend, "backend", "", "`backends` to build, comma separated: rocm, cuda, hip-cpu or all (default: every one whose compiler is installed)")
	fs.IntVar(&f.jobs, "j", runtime.NumCPU(), "run at most `N` compilers at once")
	fs.BoolVar(&f.keepGoing, "keep-going", false, "keep building what does not depend on a failed step")
	fs.BoolVar(&f.json, "json", false, "print a JSON event stream (one object per line) instead of progress text")
	fs.BoolVar(&f.stats, "stats", false, "print compile cache statistics (hits, misses, bytes) at the end")
	fs.StringVar(&f.cacheMax, "cache-max", "", "compile cache size cap such as 2G (default $HIPGEN_CACHE_MAX or 5G)")
	fs.BoolVar(&f.commands, "x", false, "print each compiler, archiver and linker command as it runs")
	fs.Var(&f.rocmArch, "rocm-arch", "AMD `archs` to build for, comma separated (overrides environment, detection and manifest)")
	fs.Var(&f.cudaArch, "cuda-arch", "NVIDIA `archs` to build for, comma separated (overrides environment, detection and manifest)")
}

// buildSession is a loaded project with its toolchains resolved.
type buildSession struct {
	project *model.Project
	opts    builder.Options
	flags   *buildFlags
}

// openCache opens the compile cache named by the environment.
func openCache(e *env, maxFlag string) (*builder.Cache, error) {
	dir, err := cachedir.Default(e.Getenv)
	if err != nil {
		return nil, err
	}
	var max int64
	for _, s := range []string{maxFlag, e.Getenv("HIPGEN_CACHE_MAX")} {
		if s != "" {
			if max, err = builder.ParseSize(s); err != nil {
				return nil, err
			}
			break
		}
	}
	return builder.OpenCache(dir, max)
}

// setupBuild loads the manifest and resolves the platforms. extra adds the
// platforms 'hipgen test' runs beyond the GPU backends.
func setupBuild(ctx context.Context, e *env, f *buildFlags, targets []string, only func(*model.Target) bool) (*buildSession, int) {
	if f.jobs < 1 {
		return nil, e.errorf(exitUsage, "-j %d: want at least 1", f.jobs)
	}
	p, code := loadProject(e)
	if p == nil {
		return nil, code
	}
	if _, err := builder.SelectTargets(p, targets, only); err != nil {
		return nil, e.errorf(exitUsage, "%v", err)
	}
	cache, err := openCache(e, f.cacheMax)
	if err != nil {
		return nil, e.errorf(exitUsage, "%v", err)
	}
	progress := builder.NewProgress(e.Stdout, e.Stderr, f.json)
	note := func(format string, args ...any) {
		progress.Event(builder.Event{Event: "note", Message: fmt.Sprintf(format, args...)})
	}
	if len(targets) == 0 {
		var ext []string
		for _, t := range p.Targets {
			if t.Kind == model.KindPythonExtension || t.Kind == model.KindTorchExtension {
				ext = append(ext, t.Name)
			}
		}
		if len(ext) > 0 {
			note("not building %s: hipgen does not build Python or Torch extensions yet (no setup.py generator); build them with the project's setup.py, from the translated tree for ROCm", strings.Join(ext, ", "))
		}
	}
	platforms, err := choosePlatforms(e, f.backend, note)
	if err != nil {
		progress.Close()
		return nil, e.errorf(exitUsage, "%v", err)
	}
	tcs, err := resolveToolchains(ctx, e, p, f, cache, platforms, note)
	if err != nil {
		progress.Close()
		return nil, e.errorf(exitUsage, "%v", err)
	}
	s := &buildSession{project: p, flags: f, opts: builder.Options{
		Project: p, Targets: targets, Only: only, Toolchains: tcs, Jobs: f.jobs, KeepGoing: f.keepGoing,
		Cache: cache, Runner: builder.ExecRunner{}, Progress: progress, Environ: e.Environ,
	}}
	s.opts.Translator = newTranslator(tcs, model.MergeDefines(p.ROCm.Defines), sources.Wave(p.Translate.Wave))
	if f.commands {
		s.opts.Commands = e.Stderr
	}
	return s, exitOK
}

// resolveToolchains picks each platform's archs and finds its compiler,
// printing the arch choice. An error names the platform and, when the
// platforms were chosen by default, how to build without it.
func resolveToolchains(ctx context.Context, e *env, p *model.Project, f *buildFlags, cache *builder.Cache, platforms []builder.Platform, note func(string, ...any)) ([]*builder.Toolchain, error) {
	host := builder.Host{Getenv: e.Getenv, LookPath: exec.LookPath, Runner: builder.ExecRunner{}, Environ: e.Environ}
	ah := archdetect.RealHost()
	ah.Getenv = e.Getenv
	var tcs []*builder.Toolchain
	for _, pl := range platforms {
		archs, err := resolveArchs(ah, p, f, pl)
		if err == nil {
			var tc *builder.Toolchain
			if tc, err = builder.NewToolchain(ctx, host, cache, pl, archs.Archs); err == nil {
				err = checkArchs(ah, cache, tc)
				tcs = append(tcs, tc)
				if archs.Source != "" {
					note("%s", archs.Line())
				}
			}
		}
		if err == nil {
			continue
		}
		if f.backend == "" && len(platforms) > 1 {
			var others []string
			for _, o := range platforms {
				if o != pl {
					others = append(others, string(o))
				}
			}
			return nil, fmt.Errorf("%s: %v\nhipgen: to build only the other backends: --backend %s", pl, err, strings.Join(others, ","))
		}
		return nil, fmt.Errorf("%s: %v", pl, err)
	}
	return tcs, nil
}

// choosePlatforms parses --backend; by default it takes every GPU backend
// whose compiler is installed, plus hip-cpu when HIP_CPU_ROOT is set, and
// says which.
func choosePlatforms(e *env, backend string, note func(string, ...any)) ([]builder.Platform, error) {
	all := []builder.Platform{builder.ROCm, builder.CUDA}
	if e.Getenv("HIP_CPU_ROOT") != "" {
		all = append(all, builder.HIPCPU)
	}
	if backend != "" {
		var out []builder.Platform
		for _, b := range strings.Split(backend, ",") {
			switch b = strings.TrimSpace(b); b {
			case "all":
				out = append(out, all...)
			case string(builder.ROCm), string(builder.CUDA), string(builder.HIPCPU):
				out = append(out, builder.Platform(b))
			default:
				return nil, fmt.Errorf("--backend %s: unknown backend %q (want rocm, cuda, hip-cpu or all)", backend, b)
			}
		}
		return dedupe(out), nil
	}
	host := builder.Host{Getenv: e.Getenv, LookPath: exec.LookPath}
	var found, missing []string
	var out []builder.Platform
	var errs []string
	for _, pl := range all {
		if _, err := builder.FindCompiler(host, pl); err != nil {
			missing = append(missing, fmt.Sprintf("%s (%s not found)", pl, builder.CompilerName(pl)))
			errs = append(errs, err.Error())
			continue
		}
		found = append(found, string(pl))
		out = append(out, pl)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no GPU compiler installed:\n  %s", strings.Join(errs, "\n  "))
	}
	msg := "backends: " + strings.Join(found, ", ")
	if len(missing) > 0 {
		msg += "; skipping " + strings.Join(missing, ", ")
	}
	note("%s", msg)
	return out, nil
}

func dedupe(ps []builder.Platform) []builder.Platform {
	var out []builder.Platform
	seen := map[builder.Platform]bool{}
	for _, p := range ps {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// resolveArchs picks a GPU platform's architectures through archdetect.
func resolveArchs(h archdetect.Host, p *model.Project, f *buildFlags, pl builder.Platform) (archdetect.Choice, error) {
	switch pl {
	case builder.ROCm:
		return archdetect.Resolve(h, archdetect.Request{Backend: archdetect.ROCm, Flag: f.rocmArch, Defaults: p.ROCm.Archs})
	case builder.CUDA:
		return archdetect.Resolve(h, archdetect.Request{Backend: archdetect.CUDA, Flag: f.cudaArch, Defaults: p.CUDA.Archs})
	}
	return archdetect.Choice{}, nil
}

// checkArchs asks archdetect whether the installed compiler builds for the
// chosen archs. A success is remembered per compiler and arch list, so
// later builds do not run the compiler to find out again.
func checkArchs(h archdetect.Host, c *builder.Cache, tc *builder.Toolchain) error {
	if tc.Platform == builder.HIPCPU || e2b(tc.Platform) == "" {
		return nil
	}
	_, err := c.Memo("archcheck\n"+tc.Identity()+"\n"+strings.Join(tc.Archs, ","), func() (string, error) {
		err := archdetect.CheckToolchain(h, e2b(tc.Platform), tc.Archs)
		if errors.Is(err, archdetect.ErrNoCompiler) {
			return "unchecked", nil // HIPGEN_HIPCC/HIPGEN_NVCC names a compiler archdetect does not probe
		}
		return "ok", err
	})
	return err
}

func e2b(p builder.Platform) archdetect.Backend {
	switch p {
	case builder.ROCm:
		return archdetect.ROCm
	case builder.CUDA:
		return archdetect.CUDA
	}
	return ""
}

var hipVersionRe = lazyre.New(`HIP version: (\d+)\.(\d+)`)

// newTranslator connects the builder to package sources, translating for
// the ROCm release the installed hipcc belongs to. The libraries that
// hipcc's ROCm lacks are reported as translate reports them
// (missing-library), when its include directory is found as translate
// finds hipconfig's (hipVersionHeader). hipDefines are the macros that
// the project's HIP compiles define (rocm.defines), wave the manifest's
// wavefront strategy.
func newTranslator(tcs []*builder.Toolchain, hipDefines []string, wave sources.Wave) builder.Translator {
	var v sources.Version
	var missing []string
	for _, tc := range tcs {
		if m := hipVersionRe.Get().FindStringSubmatch(tc.Version); m != nil {
			v.Major, _ = strconv.Atoi(m[1])
			v.Minor, _ = strconv.Atoi(m[2])
			if _, include, ok := hipVersionHeader(tc.Compiler); ok {
				missing = missingLibraries(include)
			}
		}
	}
	return builder.Translator{
		Translate: func(read func(string) ([]byte, error), includeDirs []string, name string, src []byte, launch string, local []string) ([]byte, []diag.Diagnostic) {
			opts := sources.Options{ROCmVersion: v, Launch: sources.Launch(launch), SourcePath: name, LocalIncludes: local, IncludesResolved: true, MissingLibraries: missing, HIPDefines: hipDefines, Wave: wave}
			out, ds, _, _ := sources.NewHeaderMacros(read, includeDirs, opts).TranslateIn(name, src, opts)
			return out, ds
		},
		OutputPath:     sources.OutputPath,
		IncludeClosure: sources.IncludeClosure,
		LocalIncludes:  sources.LocalIncludes,
	}
}

// build runs the build and prints diagnostics and the outcome.
func (s *buildSession) build(ctx context.Context, e *env) (*builder.Result, int) {
	res, err := builder.Build(ctx, s.opts)
	if err != nil {
		s.opts.Progress.Close()
		return nil, e.errorf(exitUsage, "%v", err)
	}
	s.opts.Progress.Close()
	var shown []diag.Diagnostic
	warnings := 0
	for _, d := range res.Diagnostics {
		if d.Severity == diag.Error {
			shown = append(shown, d)
		} else if d.Severity == diag.Warning {
			warnings++
		}
	}
	diag.WriteText(e.Stderr, shown)
	if warnings > 0 && !s.flags.json {
		fmt.Fprintf(e.Stdout, "translation: %d warnings (run 'hipgen translate' to see them)\n", warnings)
	}
	for _, f := range res.Failures {
		if s.flags.json {
			break
		}
		if f.Target == "" {
			fmt.Fprintf(e.Stderr, "hipgen: %s: %s\n", f.Platform, f.Message)
			continue
		}
		fmt.Fprintf(e.Stderr, "hipgen: %s %s: %s failed\n", f.Platform, f.Target, f.File)
	}
	if !s.flags.json {
		line := fmt.Sprintf("%d steps: %d built, %d cached or up to date", res.Actions, res.Built, res.Cached)
		if len(res.Failures) > 0 {
			line += fmt.Sprintf(", %d failed", len(res.Failures))
		}
		if res.Skipped > 0 {
			line += fmt.Sprintf(", %d skipped", res.Skipped)
		}
		fmt.Fprintf(e.Stdout, "%s (%.2fs)\n", line, res.Elapsed.Seconds())
	}
	if !res.OK() {
		return res, exitFailures
	}
	return res, exitOK
}

// printStats prints --stats, or the JSON summary event.
func (s *buildSession) printStats(e *env, res *builder.Result) {
	st := s.opts.Cache.Stats()
	if s.flags.json {
		json.NewEncoder(e.Stdout).Encode(map[string]any{
			"event": "summary", "ok": res.OK(), "steps": res.Actions, "invocations": res.Invocations,
			"seconds": res.Elapsed.Seconds(), "failures": res.Failures, "artifacts": res.Artifacts, "cache": st,
		})
		return
	}
	if !s.flags.stats {
		return
	}
	fmt.Fprintf(e.Stdout, "cache: %d hits, %d misses, %s stored, %s restored; compiler invocations: %d\n",
		st.Hits, st.Misses, humanBytes(st.BytesIn), humanBytes(st.BytesOut), res.Invocations)
	fmt.Fprintf(e.Stdout, "cache: %s in %d files at %s\n", humanBytes(st.Size), st.Files, st.Dir)
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
