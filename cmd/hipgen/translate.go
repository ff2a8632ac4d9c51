package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/hipgen/hipgen/builder"
	"github.com/hipgen/hipgen/diag"
	"github.com/hipgen/hipgen/manifest"
	"github.com/hipgen/hipgen/sources"
	"github.com/hipgen/hipgen/sources/hipmap"
)

var translateCommand = &command{
	name:    "translate",
	summary: "translate CUDA sources into the HIP tree",
	usage:   "translate [flags] [files or dirs...]",
	long:    translateLong + checksHelp(),
	flags: func(fs *flag.FlagSet) func(e *env, args []string) int {
		var o translateFlags
		fs.StringVar(&o.out, "o", "", "output `dir` when no manifest names one")
		fs.BoolVar(&o.only, "only", false, "translate exactly the named files, not the headers they include")
		fs.BoolVar(&o.stdout, "stdout", false, "print the translation of the one named file to stdout")
		fs.BoolVar(&o.check, "check", false, "write nothing; exit 1 when an output is missing or stale")
		fs.BoolVar(&o.stats, "stats", false, "print mapped identifiers per family, diagnostics per check and skipped files")
		fs.StringVar(&o.format, "format", "text", "diagnostics `format`: text, json or sarif")
		fs.StringVar(&o.launch, "launch", "", "kernel launches: chevron (keep <<<>>>) or ggl (hipLaunchKernelGGL); default from the manifest, else chevron")
		fs.StringVar(&o.rocm, "rocm-version", "", "ROCm `X.Y` that will compile the output (default: hipconfig --version, else 5.2)")
		fs.StringVar(&o.wave, "wave", "auto", "wavefront strategy: auto (32-lane logical warps where the code assumes them) or wide (widen to warpSize)")
		fs.IntVar(&o.jobs, "j", runtime.GOMAXPROCS(0), "translate `n` files in parallel")
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
as arguments are translated with the headers they reach; --only translates
exactly the named files (what generated build rules call).

Translation is incremental: a file whose input, options and mapping table
are unchanged since the last run is skipped (its diagnostics are replayed
from the state file in the output tree). Only changed outputs are written.

Diagnostics print as file:line:col: severity: message [check]; silence one
with "// hipgen:ignore check" on its line or the line above. Exit status 1
when any diagnostic is an error (or, with --check, when outputs are stale).

Warp-level code: by default (--wave=auto) code written for 32-wide warps
keeps 32-lane logical warps on 64-wide AMD wavefronts (shuffles of width 32,
ballots cut to the lane's 32-bit half, warpSize 32), which computes what the
CUDA code computes on both wave64 (CDNA) and wave32 (RDNA) GPUs; constructs
that are equivalent when widened are widened. --wave=wide widens everything
to warpSize, for code that is warp-size generic throughout. Each decision is
reported as a note.
`

type translateFlags struct {
	out, format, launch, rocm, wave string
	only, stdout, check, stats      bool
	jobs                            int
}

// translateJob is one file to translate: its slash path relative to root.
type translateJob struct {
	rel  string
	src  []byte
	opts sources.Options
	key  string
	// results
	out     []byte
	diags   []diag.Diagnostic
	stats   sources.Stats
	skipped bool
}

// checksHelp lists the diagnostic checks for 'hipgen help translate'.
func checksHelp() string {
	var b strings.Builder
	b.WriteString("\nChecks:\n")
	for _, c := range sources.Checks {
		fmt.Fprintf(&b, "  %-20s %s\n", c.Name, c.Meaning)
	}
	return b.String()
}

func runTranslate(e *env, o *translateFlags, args []string) int {
	switch o.format {
	case "text", "json", "sarif":
	default:
		return e.errorf(exitUsage, "translate: --format %q: want text, json or sarif", o.format)
	}
	opts := sources.Options{Launch: sources.Launch(o.launch), Wave: sources.Wave(o.wave)}
	if o.wave != "auto" && o.wave != "wide" {
		return e.errorf(exitUsage, "translate: --wave %q: want auto or wide", o.wave)
	}
	root := e.Dir
	var includeDirs []string
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
		for _, t := range p.Targets {
			includeDirs = append(includeDirs, t.Includes...)
		}
		if len(args) == 0 {
			files = p.AllSources()
		}
	}
	switch opts.Launch {
	case "", sources.LaunchChevron, sources.LaunchGGL:
	default:
		return e.errorf(exitUsage, "translate: --launch %q: want chevron or ggl", opts.Launch)
	}
	ver, err := rocmVersion(e, o.rocm)
	if err != nil {
		return e.errorf(exitUsage, "translate: %v", err)
	}
	opts.ROCmVersion = ver
	if len(args) > 0 {
		files, err = expandArgs(root, args, outDir)
		if err != nil {
			return e.errorf(exitUsage, "translate: %v", err)
		}
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
	if outDir == "" {
		return e.errorf(exitUsage, "translate: no output directory: pass -o DIR or run in a project with %s", manifest.FileName)
	}
	if !o.only {
		files, err = withHeaders(root, files, includeDirs)
		if err != nil {
			return e.errorf(exitUsage, "translate: %v", err)
		}
	}
	outAbs := outDir
	if !filepath.IsAbs(outAbs) {
		outAbs = filepath.Join(root, outDir)
	}
	return translateTree(e, o, root, outAbs, files, includeDirs, opts)
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

var versionRe = regexp.MustCompile(`^(\d+)\.(\d+)`)

// rocmVersion is the --rocm-version flag, else what hipconfig reports,
// else hipmap.DefaultROCm.
func rocmVersion(e *env, flagValue string) (sources.Version, error) {
	if flagValue != "" {
		return hipmap.ParseVersion(flagValue)
	}
	path, err := exec.LookPath("hipconfig")
	if err != nil {
		return hipmap.DefaultROCm, nil
	}
	cmd := exec.Command(path, "--version")
	cmd.Env = append(append([]string(nil), e.Environ...), "HIP_PLATFORM=amd")
	out, err := cmd.Output()
	if err != nil {
		return hipmap.DefaultROCm, nil
	}
	m := versionRe.FindSubmatch(bytes.TrimSpace(out))
	if m == nil {
		return hipmap.DefaultROCm, nil
	}
	return hipmap.ParseVersion(string(m[1]) + "." + string(m[2]))
}

// cudaExts are the files a directory argument contributes.
var cudaExts = map[string]bool{".cu": true, ".cuh": true}

// expandArgs turns file and directory arguments into sorted slash paths
// relative to root. Directories contribute their .cu and .cuh files,
// skipping hidden directories and the output tree.
func expandArgs(root string, args []string, outDir string) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	add := func(abs string) error {
		rel, err := filepath.Rel(root, abs)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return fmt.Errorf("%s: outside the project root %s", abs, root)
		}
		rel = filepath.ToSlash(rel)
		if !seen[rel] {
			seen[rel] = true
			out = append(out, rel)
		}
		return nil
	}
	outAbs := ""
	if outDir != "" {
		outAbs = outDir
		if !filepath.IsAbs(outAbs) {
			outAbs = filepath.Join(root, outDir)
		}
	}
	for _, a := range args {
		abs := a
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(root, a)
		}
		st, err := os.Stat(abs)
		if err != nil {
			return nil, fmt.Errorf("%s: no such file or directory", a)
		}
		if !st.IsDir() {
			if err := add(abs); err != nil {
				return nil, err
			}
			continue
		}
		err = filepath.WalkDir(abs, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if p != abs && (strings.HasPrefix(d.Name(), ".") || p == outAbs) {
					return filepath.SkipDir
				}
				return nil
			}
			if cudaExts[filepath.Ext(p)] {
				return add(p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Strings(out)
	return out, nil
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

// withHeaders adds the project-local headers the files reach.
func withHeaders(root string, files, includeDirs []string) ([]string, error) {
	read := rootReader(root)
	seen := map[string]bool{}
	var out []string
	for _, f := range files {
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
		hs, err := sources.IncludeClosure(read, f, includeDirs)
		if err != nil {
			return nil, err
		}
		for _, h := range hs {
			if !seen[h] {
				seen[h] = true
				out = append(out, h)
			}
		}
	}
	sort.Strings(out)
	return out, nil
}

func translateToStdout(e *env, o *translateFlags, root, rel string, includeDirs []string, opts sources.Options) int {
	src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		return e.errorf(exitUsage, "translate: %v", err)
	}
	opts.LocalIncludes = sources.LocalIncludes(rootReader(root), rel, src, includeDirs)
	out, ds := sources.Translate(rel, src, opts)
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

// translateTree translates files in parallel and writes the changed
// outputs, in sorted order, through builder.WriteGenerated.
func translateTree(e *env, o *translateFlags, root, outAbs string, files, includeDirs []string, opts sources.Options) int {
	if !o.check {
		if err := os.MkdirAll(outAbs, 0o755); err != nil {
			return e.errorf(exitUsage, "translate: %v", err)
		}
	}
	state := loadTranslateState(outAbs)
	jobs := make([]*translateJob, len(files))
	for i, f := range files {
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil {
			return e.errorf(exitUsage, "translate: %v", err)
		}
		fo := opts
		fo.LocalIncludes = sources.LocalIncludes(rootReader(root), f, src, includeDirs)
		jobs[i] = &translateJob{rel: f, src: src, opts: fo, key: sources.CacheKey(f, src, fo)}
	}
	runJobs(jobs, o.jobs, state, outAbs)

	var all []diag.Diagnostic
	var stale []string
	written, skipped := 0, 0
	// Keep what earlier runs recorded for other files (--only runs one
	// file per build rule), dropping sources that no longer exist.
	newState := translateState{Files: map[string]fileState{}}
	for f, st := range state.Files {
		if fileExists(filepath.Join(root, filepath.FromSlash(f))) {
			newState.Files[f] = st
		}
	}
	mapped := map[string]int{}
	for _, j := range jobs {
		all = append(all, j.diags...)
		outRel := sources.OutputPath(j.rel)
		if j.skipped {
			skipped++
			newState.Files[j.rel] = state.Files[j.rel]
			continue
		}
		for f, c := range j.stats.Mapped {
			mapped[f] += c
		}
		newState.Files[j.rel] = fileState{Key: j.key, OutHash: hashBytes(j.out), Diags: toStateDiags(j.diags)}
		if o.check {
			old, err := os.ReadFile(filepath.Join(outAbs, filepath.FromSlash(outRel)))
			if err != nil || !bytes.Equal(old, j.out) {
				stale = append(stale, outRel)
			}
			continue
		}
		changed, err := builder.WriteGenerated(outAbs, outRel, j.out, builder.WriteOptions{})
		if err != nil {
			return e.errorf(exitUsage, "translate: %v", err)
		}
		if changed {
			written++
		}
	}
	diag.Sort(all)
	if err := printDiags(e, o.format, all, false); err != nil {
		return e.errorf(exitUsage, "translate: %v", err)
	}
	if !o.check {
		if err := saveTranslateState(outAbs, newState); err != nil {
			return e.errorf(exitUsage, "translate: %v", err)
		}
	}
	if o.stats {
		printTranslateStats(e, len(jobs), written, skipped, mapped, all)
	}
	if o.check && len(stale) > 0 {
		for _, s := range stale {
			fmt.Fprintf(e.Stderr, "hipgen: stale: %s\n", filepath.ToSlash(filepath.Join(filepath.Base(outAbs), s)))
		}
		return exitFailures
	}
	if diag.HasErrors(all) {
		return exitFailures
	}
	return exitOK
}

// runJobs translates the jobs on n goroutines; a job whose cache key and
// output match the state is skipped and its diagnostics replayed.
func runJobs(jobs []*translateJob, n int, state translateState, outAbs string) {
	if n < 1 {
		n = 1
	}
	var wg sync.WaitGroup
	ch := make(chan *translateJob)
	for w := 0; w < n; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range ch {
				if st, ok := state.Files[j.rel]; ok && st.Key == j.key && outputMatches(outAbs, j.rel, st.OutHash) {
					j.skipped, j.diags = true, fromStateDiags(st.Diags)
					continue
				}
				j.out, j.diags, j.stats = sources.TranslateStats(j.rel, j.src, j.opts)
			}
		}()
	}
	for _, j := range jobs {
		ch <- j
	}
	close(ch)
	wg.Wait()
}

func printTranslateStats(e *env, files, written, skipped int, mapped map[string]int, ds []diag.Diagnostic) {
	fmt.Fprintf(e.Stdout, "files: %d translated, %d written, %d skipped as unchanged\n", files-skipped, written, skipped)
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
