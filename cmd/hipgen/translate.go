package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/hipgen/hipgen/builder"
	"github.com/hipgen/hipgen/diag"
	"github.com/hipgen/hipgen/internal/assist"
	"github.com/hipgen/hipgen/internal/lazyre"
	"github.com/hipgen/hipgen/internal/rootpath"
	"github.com/hipgen/hipgen/internal/sysfile"
	"github.com/hipgen/hipgen/manifest"
	"github.com/hipgen/hipgen/model"
	"github.com/hipgen/hipgen/sources"
	"github.com/hipgen/hipgen/sources/hipmap"
)

var translateCommand = &command{
	name:     "translate",
	summary:  "translate CUDA sources into the HIP tree",
	usage:    "translate [flags] [files or dirs...]",
	long:     translateLong,
	moreLong: checksHelp,
	flags: func(fs *flag.FlagSet) func(e *env, args []string) int {
		var o translateFlags
		fs.StringVar(&o.out, "o", "", "output `dir` when no manifest names one")
		fs.Var(&o.includes, "I", "look for project headers in `dir` too (relative to the project root; repeatable; added to the manifest's includes)")
		fs.Var(&o.defines, "D", "HIP builds define `NAME[=value]` (repeatable; added to the manifest's rocm.defines): the project's own tests of it select its HIP code")
		fs.BoolVar(&o.only, "only", false, "translate exactly the named files, not the headers they include")
		fs.BoolVar(&o.stdout, "stdout", false, "print the translation of the one named file to stdout")
		fs.BoolVar(&o.check, "check", false, "write nothing; exit 1 when an output is missing or stale")
		fs.BoolVar(&o.stats, "stats", false, "print mapped identifiers per family, diagnostics per check and skipped files")
		fs.StringVar(&o.format, "format", "text", "diagnostics `format`: text, json or sarif")
		fs.StringVar(&o.launch, "launch", "", "kernel launches: chevron (keep <<<>>>) or ggl (hipLaunchKernelGGL); default from the manifest, else chevron")
		fs.StringVar(&o.rocm, "rocm-version", "", "ROCm `X.Y` that will compile the output (default: hipconfig --version, else 5.2)")
		fs.StringVar(&o.wave, "wave", "", "wavefront strategy: auto (32-lane logical warps where the code assumes them) or wide (widen to warpSize); default from the manifest, else auto")
		fs.IntVar(&o.jobs, "j", 0, "translate `n` files in parallel (default: one per processor, at most 16)")
		return func(e *env, args []string) int { return runTranslate(e, &o, args) }
	},
}

const translateLong = `
Translates CUDA sources and headers into HIP, into a tree that mirrors the
source tree (translate.out in the manifest, default "hip"; -o DIR without a
manifest). .cu files become .hip, headers keep their names. The CUDA files
are never modified.

With no arguments every source and header of the manifest is translated,
with the project-local headers they include. Files and directories given
as arguments are translated with the headers they reach (a directory
contributes its .cu and .cuh files, and those of its C and C++ sources
that use CUDA: whose translation changes them, as a PyTorch extension's
bindings that include ATen/cuda headers, or that reach a CUDA header
through project headers; .h and .hpp headers are translated when a
translated file includes them); --only translates exactly the named files
(what generated build rules call). Includes are looked up next to
the including file, then in the manifest's include directories and those
given with -I.

Translation is incremental: a file whose input, options and mapping table
are unchanged since the last run is skipped (its diagnostics are replayed
from the state file in the output tree). Only changed outputs are written.
A C or C++ source that a directory offers and that needs no translation is
recorded as such, and translated again only when it, what it includes or
the files that include it change.
The output of a recorded source that is gone (deleted or renamed), or of a
C or C++ source that no longer needs translating, is removed, with the
directories that this empties (each is named; one edited since hipgen wrote
it is kept, with a word).

Code under #ifdef or defined() of a macro that the project headers a file
includes define only for NVIDIA GPUs (in blocks hipcc never compiles, such
as "#if __CUDA_ARCH__ >= 750") is never compiled for AMD GPUs either: what
is found there is a note, which names the header.

A project's own HIP code behind a switch of its own ("#ifdef USE_AMD_ROCM"
... "#else" CUDA code "#endif") is taken for HIP when the manifest's
rocm.defines (or -D) names the switch: hipgen's builds then define it for
every HIP compile, and what the switch keeps from HIP builds is reported
as notes. Without it, HIP builds compile the CUDA alternative, and a note
at its first finding names the switch.

Diagnostics print as file:line:col: severity: message [check]; silence one
with "// hipgen:ignore check" on its line or the line above. Exit status 1
when any diagnostic is an error; with --check, only when an output is
missing or stale (each is named; diagnostics are printed all the same).

Warp-level code: by default (--wave=auto) code written for 32-wide warps
keeps 32-lane logical warps on 64-wide AMD wavefronts (shuffles of width 32,
ballots cut to the lane's 32-bit half, warpSize 32), which computes what the
CUDA code computes on both wave64 (CDNA) and wave32 (RDNA) GPUs; constructs
that are equivalent when widened are widened. --wave=wide widens everything
to warpSize, for code that is warp-size generic throughout. Each decision is
reported as a note.
`

type translateFlags struct {
	includes, defines               dirList
	out, format, launch, rocm, wave string
	only, stdout, check, stats      bool
	jobs                            int
}

// checksHelp lists the diagnostic checks for 'hipgen help translate'.
func checksHelp() string {
	var b strings.Builder
	b.WriteString("\nChecks:\n")
	width := 0
	for _, c := range sources.Checks {
		width = max(width, len(c.Name))
	}
	for _, c := range sources.Checks {
		fmt.Fprintf(&b, "  %-*s %s\n", width, c.Name, c.Meaning)
	}
	return b.String()
}

// maxTranslateProcs caps the processors a translation uses unless -j or
// GOMAXPROCS says otherwise. Each processor and thread first touches memory
// of its own (allocation caches, stacks, a worker's buffers), and first
// touches are one resource for the whole machine: on a 32-core host, 120
// interleaved translations of the 40,000-line speed corpus took 6.64 ms at
// the median with GOMAXPROCS=16, 6.82 with 24 and 7.27 with all 32 (a
// second call: 12 took 7.25, 16 6.91, 20 6.93, 32 7.60); on 16 cores, 8
// and 12 were slower than 16. Set here, after the runtime has started all
// 32, the cap gains less (150 runs each: median 7.68 against 7.88 ms, CPU
// 60 against 74 ms). A translation of far more code is still quick next to
// the compiles that follow it.
const maxTranslateProcs = 16

func runTranslate(e *env, o *translateFlags, args []string) int {
	// A translation allocates little that lives long, and a run is over in
	// milliseconds: collect garbage only if the heap nears 1 GiB, not
	// every few megabytes.
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(1 << 30))
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	if o.jobs < 1 {
		o.jobs = runtime.GOMAXPROCS(0)
		if o.jobs > maxTranslateProcs && os.Getenv("GOMAXPROCS") == "" {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(maxTranslateProcs))
			o.jobs = maxTranslateProcs
		}
	}
	go sources.Warm() // while the sources are listed
	switch o.format {
	case "text", "json", "sarif":
	default:
		return e.errorf(exitUsage, "translate: --format %q: want text, json or sarif", o.format)
	}
	opts := sources.Options{Launch: sources.Launch(o.launch), Wave: sources.Wave(o.wave)}
	if o.wave != "" && o.wave != "auto" && o.wave != "wide" {
		return e.errorf(exitUsage, "translate: --wave %q: want auto or wide", o.wave)
	}
	for _, d := range o.defines {
		if !manifest.ValidDefine(d) {
			return e.errorf(exitUsage, "translate: -D %q: not a macro definition (want NAME or NAME=value)", d)
		}
	}
	hipDefines := o.defines
	root := e.Dir
	var includeDirs []string
	for _, d := range o.includes {
		rel, err := projectRel(root, d)
		if err != nil {
			return e.errorf(exitUsage, "translate: -I %s: %v", d, err)
		}
		includeDirs = append(includeDirs, rel)
	}
	outDir := o.out
	var files []string
	hasManifest := fileExists(filepath.Join(root, manifest.FileName))
	if hasManifest || len(args) == 0 {
		p, code := loadProject(e)
		if p == nil {
			return code
		}
		if outDir == "" {
			outDir = p.Translate.Out
		}
		if o.launch == "" {
			opts.Launch = sources.Launch(p.Translate.Launch)
		}
		if o.wave == "" {
			opts.Wave = sources.Wave(p.Translate.Wave)
		}
		for _, t := range p.Targets {
			includeDirs = append(includeDirs, t.Includes...)
		}
		hipDefines = append(slices.Clip(p.ROCm.Defines), hipDefines...)
		if len(args) == 0 {
			files = p.AllSources()
		}
	}
	opts.HIPDefines = model.MergeDefines(hipDefines)
	switch opts.Launch {
	case "", sources.LaunchChevron, sources.LaunchGGL:
	default:
		return e.errorf(exitUsage, "translate: --launch %q: want chevron or ggl", opts.Launch)
	}
	outAbs := outDir
	if outDir != "" && !filepath.IsAbs(outAbs) {
		outAbs = filepath.Join(root, outDir)
	}
	// The output tree's state is read, and the translator's tables are
	// built when there is none, while the sources are listed.
	var tt *treeTranslation
	fs := newProjectFS(root)
	if outDir != "" && !o.stdout {
		tt = newTreeTranslation(fs, outAbs, o)
	}
	// The installed ROCm's version is looked up meanwhile too.
	var ver sources.Version
	var missing []string
	var verErr error
	verDone := make(chan struct{})
	go func() {
		defer close(verDone)
		ver, missing, verErr = rocmTarget(e, o.rocm)
	}()
	if tt != nil {
		// The sources are translated as they are found.
		feed := func(found func(...string)) error {
			found(files...)
			return nil
		}
		if len(args) > 0 {
			feed = func(found func(...string)) error { return listArgs(fs, args, outAbs, found, tt.addHost) }
		}
		return translateTree(e, o, tt, feed, includeDirs, opts, func() (sources.Version, []string, error) {
			<-verDone
			return ver, missing, verErr
		})
	}
	var err error
	if len(args) > 0 {
		files, err = expandArgs(fs, args, outAbs)
	}
	<-verDone
	if verErr != nil {
		return e.errorf(exitUsage, "translate: %v", verErr)
	}
	opts.ROCmVersion = ver
	opts.MissingLibraries = missing
	if err != nil {
		return e.errorf(exitUsage, "translate: %v", err)
	}
	if len(files) == 0 {
		return e.errorf(exitUsage, "translate: no files to translate")
	}
	if o.stdout {
		if len(files) != 1 {
			return e.errorf(exitUsage, "translate: --stdout needs exactly one file, got %d", len(files))
		}
		return translateToStdout(e, o, root, files[0], includeDirs, opts)
	}
	return e.errorf(exitUsage, "translate: no output directory: pass -o DIR or run in a project with %s", manifest.FileName)
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

var versionRe = lazyre.New(`^(\d+)\.(\d+)`)

var hipVersionDefineRe = lazyre.New(`(?m)^#define HIP_VERSION_(MAJOR|MINOR) (\d+)`)

// rocmVersion is the --rocm-version flag, else the version of the HIP
// installation that hipconfig on PATH belongs to (read from its
// hip/hip_version.h, which is what hipconfig --version prints, without
// starting hipconfig, a Perl script that takes longer than translating a
// project), else what hipconfig --version says, else hipmap.DefaultROCm.
// rocmTarget returns the ROCm release to translate for: --rocm-version's,
// else the installed one's (found through hipconfig), else 5.2. For an
// installed ROCm whose include directory is known it also returns the
// libraries (sources.Libraries) that directory lacks, sorted.
func rocmTarget(e *env, flagValue string) (sources.Version, []string, error) {
	if flagValue != "" {
		v, err := hipmap.ParseVersion(flagValue)
		return v, nil, err
	}
	path, err := exec.LookPath("hipconfig")
	if err != nil {
		return hipmap.DefaultROCm, nil, nil
	}
	if v, include, ok := hipVersionHeader(path); ok {
		return v, missingLibraries(include), nil
	}
	v, err := rocmVersionOf(e, path)
	return v, nil, err
}

// missingLibraries returns the names of the libraries none of whose
// marker headers is in the include directory dir.
func missingLibraries(dir string) []string {
	var out []string
	for _, lib := range sources.Libraries {
		found := false
		for _, m := range lib.Markers {
			if fileExists(filepath.Join(dir, filepath.FromSlash(m))) {
				found = true
				break
			}
		}
		if !found {
			out = append(out, lib.Name)
		}
	}
	slices.Sort(out)
	return out
}

// rocmVersionOf asks hipconfig for its release.
func rocmVersionOf(e *env, path string) (sources.Version, error) {
	cmd := exec.Command(path, "--version")
	cmd.Env = append(append([]string(nil), e.Environ...), "HIP_PLATFORM=amd")
	out, err := cmd.Output()
	if err != nil {
		return hipmap.DefaultROCm, nil
	}
	m := versionRe.Get().FindSubmatch(bytes.TrimSpace(out))
	if m == nil {
		return hipmap.DefaultROCm, nil
	}
	return hipmap.ParseVersion(string(m[1]) + "." + string(m[2]))
}

// hipVersionHeader reads HIP_VERSION_MAJOR and _MINOR from the
// include/hip/hip_version.h beside the bin directory of hipconfig, or of
// another ROCm tool such as hipcc (whose symbolic links are followed:
// /opt/rocm/bin/hipconfig may point into /opt/rocm-6.2.0/bin), and returns
// that include directory too.
func hipVersionHeader(hipconfig string) (v sources.Version, include string, ok bool) {
	real, err := filepath.EvalSymlinks(hipconfig)
	if err != nil {
		return sources.Version{}, "", false
	}
	include = filepath.Join(filepath.Dir(filepath.Dir(real)), "include")
	data, err := os.ReadFile(filepath.Join(include, "hip", "hip_version.h"))
	if err != nil {
		return sources.Version{}, "", false
	}
	var major, minor string
	for _, m := range hipVersionDefineRe.Get().FindAllSubmatch(data, -1) {
		if string(m[1]) == "MAJOR" {
			major = string(m[2])
		} else {
			minor = string(m[2])
		}
	}
	if major == "" || minor == "" {
		return sources.Version{}, "", false
	}
	v, err = hipmap.ParseVersion(major + "." + minor)
	return v, include, err == nil
}

// dirList is a repeatable flag.
type dirList []string

func (l *dirList) String() string     { return strings.Join(*l, ",") }
func (l *dirList) Set(v string) error { *l = append(*l, v); return nil }

// projectRel turns a path given on the command line (relative to the
// project root, or absolute) into a clean slash path relative to the
// root, refusing one outside it.
func projectRel(root, p string) (string, error) {
	abs := p
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(root, p)
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("outside the project root %s", root)
	}
	return filepath.ToSlash(rel), nil
}

// cudaExts reports the extensions of the files a directory argument
// contributes.
func cudaExts(ext string) bool { return ext == ".cu" || ext == ".cuh" }

// expandArgs turns file and directory arguments into sorted slash paths
// relative to the root of fs, as listArgs finds them.
func expandArgs(fs *projectFS, args []string, outAbs string) ([]string, error) {
	var mu sync.Mutex
	seen := map[string]bool{}
	var out []string
	err := listArgs(fs, args, outAbs, func(rels ...string) {
		mu.Lock()
		defer mu.Unlock()
		for _, rel := range rels {
			if !seen[rel] {
				seen[rel] = true
				out = append(out, rel)
			}
		}
	}, nil)
	if err != nil {
		return nil, err
	}
	sort.Strings(out)
	return out, nil
}

// listArgs calls found with the slash path relative to the root of fs of
// each file argument and of each .cu and .cuh file below a directory
// argument (skipping hidden directories and the output tree outAbs), as
// soon as it is found (a directory's files together), from any goroutine
// and maybe more than once for a path, and host, unless nil, with the C
// and C++ sources below a directory argument alike; fs learns that the
// directories walked are inside the root, and the sizes of the files. A
// file outside the root is an error; after an error, found and host may
// have been called for some files.
func listArgs(fs *projectFS, args []string, outAbs string, found, host func(rels ...string)) error {
	root := fs.root
	for _, a := range args {
		abs := a
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(root, a)
		}
		st, err := os.Stat(abs)
		if err != nil {
			return fmt.Errorf("%s: no such file or directory", a)
		}
		rel, err := projectRel(root, abs)
		if !st.IsDir() {
			if err != nil {
				return fmt.Errorf("%s: %v", abs, err)
			}
			found(rel)
			continue
		}
		// Below a directory that is inside the root, the walk meets
		// only real directories, which are inside too. (Files below
		// one outside it are refused one by one.)
		inside := err == nil && fs.inside.Inside(filepath.FromSlash(rel))
		if err := walkSources(fs, abs, outAbs, inside, found, host); err != nil {
			return err
		}
	}
	return nil
}

// walkSources calls found with the slash path relative to the root of fs
// of each .cu and .cuh file (host, unless nil, with each C and C++ source)
// below the directory abs that filepath.WalkDir
// would find (symbolic links to directories not followed, hidden
// directories and the output tree outAbs skipped, a link to a file kept
// only when it stays inside the root), a directory's files in one call,
// in no particular order and from several goroutines: directories are
// read in parallel, and each file is looked up in fs first, so that its
// size is known when its work is scheduled. When inside, the directories walked are marked inside the
// root. Of several errors (of reading a directory, or a path outside the
// root), the one of the first path in sorted order is returned, as a
// sequential walk would.
func walkSources(fs *projectFS, abs, outAbs string, inside bool, found, host func(rels ...string)) error {
	var (
		mu   sync.Mutex
		errs []walkError
		// Each directory is read by a goroutine of its own, or by a
		// worker that takes it first (see translateTree): the largest
		// files, which take longest, are found sooner that way.
		g assist.Group
		// Directories open at once are bounded; goroutines waiting
		// for a turn hold no file descriptor.
		turn = make(chan struct{}, 4*runtime.GOMAXPROCS(0))
	)
	var walk func(dir string)
	walk = func(dir string) {
		turn <- struct{}{}
		entries, err := sysfile.ReadDir(dir)
		if err != nil {
			mu.Lock()
			errs = append(errs, walkError{dir, err})
			mu.Unlock()
		}
		var files, hosts []string
		for _, d := range entries {
			p := filepath.Join(dir, d.Name)
			if d.IsDir() {
				if strings.HasPrefix(d.Name, ".") || p == outAbs {
					continue
				}
				if inside {
					rel, _ := filepath.Rel(fs.root, p)
					fs.inside.MarkInside(rel)
				}
				g.Go(func() { walk(p) })
				continue
			}
			// A C or C++ source (sources.HostSource) is offered to
			// host, which translates it when it uses CUDA (see
			// treeTranslation.addHost).
			isHost := host != nil && sources.HostSource(d.Name)
			if !cudaExts(filepath.Ext(p)) && !isHost {
				continue
			}
			if d.IsLink() {
				// A link out of the project is not the project's file.
				if _, ok, err := rootpath.Within(fs.root, p); err != nil || !ok {
					continue
				}
			}
			rel, err := projectRel(fs.root, p)
			if err != nil {
				mu.Lock()
				errs = append(errs, walkError{p, fmt.Errorf("%s: %v", p, err)})
				mu.Unlock()
				continue
			}
			if inside {
				fs.lookup(rel)
			}
			if isHost {
				hosts = append(hosts, rel)
				continue
			}
			files = append(files, rel)
		}
		// The directory's files join the work at once (one lock of
		// the work queue, not one per file).
		if len(files) > 0 {
			found(files...)
		}
		if len(hosts) > 0 {
			host(hosts...)
		}
		<-turn
	}
	walk(abs)
	g.Wait()
	if len(errs) > 0 {
		return slices.MinFunc(errs, func(a, b walkError) int { return strings.Compare(a.path, b.path) }).err
	}
	return nil
}

type walkError struct {
	path string
	err  error
}

// rootReader reads slash paths relative to root, refusing symbolic links
// and paths that leave it.
func rootReader(root string) func(string) ([]byte, error) {
	return func(p string) ([]byte, error) {
		abs, err := builder.ResolveInside(root, p)
		if err != nil {
			return nil, err
		}
		return os.ReadFile(abs)
	}
}

func translateToStdout(e *env, o *translateFlags, root, rel string, includeDirs []string, opts sources.Options) int {
	src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		return e.errorf(exitUsage, "translate: %v", err)
	}
	read := rootReader(root)
	opts.LocalIncludes = sources.LocalIncludes(read, rel, src, includeDirs)
	opts.IncludesResolved = true
	out, ds, _, _ := sources.NewHeaderMacros(read, includeDirs, opts).TranslateIn(rel, src, opts)
	e.Stdout.Write(out)
	if err := printDiags(e, o.format, ds, true); err != nil {
		return e.errorf(exitUsage, "translate: %v", err)
	}
	if diag.HasErrors(ds) {
		return exitFailures
	}
	return exitOK
}

// printDiags prints text diagnostics to stderr; json and sarif go to stdout
// unless stdout carries a translation.
func printDiags(e *env, format string, ds []diag.Diagnostic, stdoutBusy bool) error {
	w := e.Stdout
	if stdoutBusy || format == "text" {
		w = e.Stderr
	}
	switch format {
	case "json":
		return diag.WriteJSON(w, ds)
	case "sarif":
		return sources.WriteSARIF(w, ds)
	}
	return diag.WriteText(w, ds)
}

func printTranslateStats(e *env, files, written, skipped, leftOut, leftOutKnown int, mapped map[string]int, ds []diag.Diagnostic) {
	fmt.Fprintf(e.Stdout, "files: %d translated, %d written, %d skipped as unchanged\n", files-skipped, written, skipped)
	if leftOut > 0 {
		fmt.Fprintf(e.Stdout, "C and C++ sources left out (no use of CUDA): %d, of which %d unchanged since the last run\n", leftOut, leftOutKnown)
	}
	fams := make([]string, 0, len(mapped))
	for f := range mapped {
		fams = append(fams, f)
	}
	sort.Strings(fams)
	for _, f := range fams {
		fmt.Fprintf(e.Stdout, "mapped %s: %d\n", f, mapped[f])
	}
	checks := map[string]int{}
	for _, d := range ds {
		checks[d.Severity.String()+" "+d.Check]++
	}
	keys := make([]string, 0, len(checks))
	for k := range checks {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		sev, check, _ := strings.Cut(k, " ")
		fmt.Fprintf(e.Stdout, "diagnostics %s [%s]: %d\n", sev, check, checks[k])
	}
}
