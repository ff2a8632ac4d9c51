package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"path/filepath"
	"time"

	"github.com/hipgen/hipgen/builder"
	"github.com/hipgen/hipgen/model"
)

var testCommand = &command{
	name:    "test",
	summary: "build and run the test targets on every available platform",
	usage:   "test [flags] [targets...]",
	long: `
Builds the test targets (default: all of them) like 'hipgen build' and runs
each on every platform it was built for, one at a time:

  rocm     the translated HIP build, on an AMD GPU
  cuda     the original CUDA build, on an NVIDIA GPU
  hip-cpu  the translated code compiled with the host C++ compiler against
           ROCm's HIP-CPU headers and TBB, with 64-wide wavefronts; only
           when HIP_CPU_ROOT points at a HIP-CPU checkout

A test passes by exiting 0. A test that cannot run here (no GPU) exits 77
and is reported as skipped, with its last output line as the reason.
Non-zero exits fail; a test killed by a signal crashed; one running longer
than --timeout is killed and reported as timed out. A table per platform
follows; --junit writes the results for CI systems.

HIP-CPU lacks some device functions (__lane_id, __activemask) that hipgen
supplies in a compatibility header. Two upstream limits make correct code
fail on hip-cpu while it passes on AMD GPUs: sub-warp shuffles (width < 64)
read the wrong lanes (bench/hip-cpu/patch.sh fixes a local copy), and
shuffles assume that every lane of the 64-wide wavefront takes part, so a
shuffle in a branch only half a wavefront takes (if (warp == 0) with 32-lane
warps, as in examples/vecadd's reduction) computes wrong values.

Exit status 1 when a test failed, crashed, timed out or did not build.
`,
	flags: func(fs *flag.FlagSet) func(e *env, args []string) int {
		var f buildFlags
		f.register(fs)
		timeout := fs.Duration("timeout", 5*time.Minute, "kill a test running longer than `d`")
		junit := fs.String("junit", "", "write JUnit XML results to `file`")
		return func(e *env, args []string) int {
			if *timeout <= 0 {
				return e.errorf(exitUsage, "--timeout %s: want a positive duration", *timeout)
			}
			isTest := func(t *model.Target) bool { return t.Kind == model.KindTest }
			ctx := context.Background()
			s, code := setupBuild(ctx, e, &f, args, isTest)
			if s == nil {
				return code
			}
			for _, name := range args {
				if t := s.project.Target(name); t != nil && !isTest(t) {
					s.opts.Progress.Close()
					return e.errorf(exitUsage, "test: %s is a %s, not a test target; 'hipgen build %s' builds it", name, t.Kind, name)
				}
			}
			// Every platform's tests that build should run, whatever failed elsewhere.
			s.opts.KeepGoing = true
			res, _ := s.build(ctx, e)
			if res == nil {
				return exitUsage
			}
			results := runTests(ctx, e, s, res, *timeout)
			if *junit != "" {
				path := *junit
				if !filepath.IsAbs(path) {
					path = filepath.Join(e.Dir, path)
				}
				if err := builder.WriteJUnit(path, s.project.Name, results); err != nil {
					return e.errorf(exitUsage, "--junit: %v", err)
				}
			}
			if f.json {
				json.NewEncoder(e.Stdout).Encode(map[string]any{"event": "summary", "tests": results, "build_ok": res.OK()})
			} else {
				s.printStats(e, res)
				builder.WriteTestSummary(e.Stdout, results)
			}
			if len(results) == 0 {
				fmt.Fprintln(e.Stdout, "no test targets to run")
				return exitOK
			}
			if builder.TestsFailed(results) || !res.OK() {
				return exitFailures
			}
			return exitOK
		}
	},
}

// runTests runs every built test artifact; tests whose build failed are
// reported as not built rather than silently dropped.
func runTests(ctx context.Context, e *env, s *buildSession, res *builder.Result, timeout time.Duration) []builder.TestResult {
	var results []builder.TestResult
	p := builder.NewProgress(e.Stdout, e.Stderr, s.flags.json)
	defer p.Close()
	for _, a := range res.Artifacts {
		if a.Kind != model.KindTest {
			continue
		}
		var r builder.TestResult
		if a.Built {
			r = builder.RunTest(ctx, builder.TestOptions{Root: s.project.Root, Timeout: timeout, Environ: e.Environ}, a)
		} else {
			r = builder.TestResult{Platform: a.Platform, Target: a.Target, Status: builder.TestNotRun, Reason: "its build failed (see above)"}
		}
		p.Event(builder.Event{Event: "test", Platform: r.Platform, Target: r.Target, Status: r.Status, Seconds: r.Seconds, Message: r.Reason})
		results = append(results, r)
	}
	return results
}
