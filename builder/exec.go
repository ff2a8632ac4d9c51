package builder

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// executor runs an action graph with at most jobs tools at once. Actions
// start when their inputs are done; a failure stops new work unless
// keepGoing, and always skips the failed action's dependents.
type executor struct {
	root      string
	cache     *Cache
	runner    Runner
	environ   []string
	jobs      int
	keepGoing bool
	progress  Progress
	commands  io.Writer // where -x prints each command, or nil
	hasher    *fileHasher
	start     time.Time

	invocations atomic.Int64
	built       atomic.Int64
	cached      atomic.Int64
	skipped     atomic.Int64
	done        atomic.Int64
	total       int
	stopped     atomic.Bool

	mu       sync.Mutex
	failures []Failure
}

// Failure is one action that did not produce its output.
type Failure struct {
	Platform Platform `json:"platform"`
	Target   string   `json:"target"`
	File     string   `json:"file"`
	// Message is the compiler's output with positions mapped to the
	// user's sources, or why the action could not run.
	Message string `json:"message"`
}

type actionState struct {
	done chan struct{}
	ok   bool
}

func (x *executor) run(ctx context.Context, actions []*action) {
	states := make(map[*action]*actionState, len(actions))
	for _, a := range actions {
		states[a] = &actionState{done: make(chan struct{})}
	}
	x.total = len(actions)
	sem := make(chan struct{}, max(1, x.jobs))
	var wg sync.WaitGroup
	for _, a := range actions {
		wg.Add(1)
		go func(a *action) {
			defer wg.Done()
			st := states[a]
			defer close(st.done)
			for _, d := range a.deps {
				<-states[d].done
				if !states[d].ok {
					x.finish(a, "skip", false, 0, "")
					return
				}
			}
			sem <- struct{}{}
			defer func() { <-sem }()
			if x.stopped.Load() || ctx.Err() != nil {
				x.finish(a, "skip", false, 0, "")
				return
			}
			st.ok = x.runAction(ctx, a)
			a.ok = st.ok
			if !st.ok && !x.keepGoing {
				x.stopped.Store(true)
			}
		}(a)
	}
	wg.Wait()
}

func (x *executor) finish(a *action, event string, cached bool, d time.Duration, msg string) {
	n := int(x.done.Add(1))
	switch {
	case cached:
		x.cached.Add(1)
	case event == "done":
		x.built.Add(1)
	case event == "skip":
		x.skipped.Add(1)
	}
	x.progress.Event(Event{
		Event: event, Platform: a.tc.Platform, Target: a.target.Name, Step: string(a.kind),
		File: a.display, Cached: cached, Seconds: d.Seconds(), Done: n, Total: x.total,
		Elapsed: time.Since(x.start).Seconds(), Message: msg,
	})
}

func (x *executor) fail(a *action, d time.Duration, msg string) bool {
	x.mu.Lock()
	x.failures = append(x.failures, Failure{Platform: a.tc.Platform, Target: a.target.Name, File: a.display, Message: msg})
	x.mu.Unlock()
	x.finish(a, "fail", false, d, msg)
	return false
}

// hashRel hashes a dependency path as the compiler reported it.
func (x *executor) hashRel(p string) (string, error) {
	if !filepath.IsAbs(p) {
		p = filepath.Join(x.root, p)
	}
	return x.hasher.hash(p)
}

// key is the action's cache key before header dependencies.
func (x *executor) key(a *action) (string, error) {
	parts := []string{string(a.kind), a.tc.Identity(), strings.Join(a.tc.Archs, ","), a.tool, strings.Join(a.args, "\x00")}
	if a.hostRoot {
		parts = append(parts, x.root)
	}
	for _, in := range a.inputs {
		h, err := x.hashRel(in)
		if err != nil {
			return "", fmt.Errorf("%s: %w", in, err)
		}
		parts = append(parts, in, h)
	}
	return keyOf(parts...), nil
}

// runAction satisfies a from the cache or runs its tool; it reports success.
func (x *executor) runAction(ctx context.Context, a *action) bool {
	t0 := time.Now()
	x.progress.Event(Event{Event: "start", Platform: a.tc.Platform, Target: a.target.Name, Step: string(a.kind), File: a.display, Done: int(x.done.Load()), Total: x.total, Elapsed: time.Since(x.start).Seconds()})
	key, err := x.key(a)
	if err != nil {
		return x.fail(a, 0, err.Error())
	}
	out := filepath.Join(x.root, filepath.FromSlash(a.output))
	if r, ok := x.cache.lookup(key, x.hashRel); ok {
		o := r.Outputs[0]
		if err := x.cache.restore(o.Hash, o.Size, out, os.FileMode(a.perm)); err == nil {
			x.cache.hits.Add(1)
			x.hasher.forget(out)
			x.finish(a, "done", true, time.Since(t0), mapDiagnostics(r.Stderr, a.smap, x.root))
			return true
		}
	}
	x.cache.misses.Add(1)
	msg, failure := x.runTool(ctx, a, key, out)
	if failure != "" {
		return x.fail(a, time.Since(t0), failure)
	}
	x.hasher.forget(out)
	x.finish(a, "done", false, time.Since(t0), msg)
	return true
}

// runTool runs a's tool into a temporary file, stores the result in the
// cache under key and moves the output into place. It returns the tool's
// messages, or a failure explaining why there is no output.
func (x *executor) runTool(ctx context.Context, a *action, key, out string) (msg, failure string) {
	tmp := tempName(out)
	dep := tmp + ".d"
	defer os.Remove(tmp)
	defer os.Remove(dep)
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return "", err.Error()
	}
	args := make([]string, len(a.args))
	for i, s := range a.args {
		switch s {
		case "$out":
			s = tmp
		case "$dep":
			s = dep
		}
		args[i] = s
	}
	x.invocations.Add(1)
	if x.commands != nil {
		x.mu.Lock()
		fmt.Fprintln(x.commands, strings.TrimSpace(strings.Join(a.tc.Env, " ")+" "+a.tool+" "+quoteArgs(args)))
		x.mu.Unlock()
	}
	// The tool gets a TMPDIR of its own inside the build tree, removed when
	// it is done: hipcc (ROCm 5.2's clang) leaves empty directories in
	// TMPDIR on every compile, which would pile up in /tmp.
	tmpDir, err := filepath.Abs(tmp + ".tmpdir")
	if err != nil {
		return "", err.Error()
	}
	if err := os.Mkdir(tmpDir, 0o700); err != nil {
		return "", err.Error()
	}
	defer os.RemoveAll(tmpDir)
	env := append(a.tc.env(x.environ), "TMPDIR="+tmpDir)
	_, stderr, err := x.runner.Run(ctx, Cmd{Path: a.tool, Args: args, Env: env, Dir: x.root})
	msg = mapDiagnostics(cleanToolOutput(string(stderr), tmp, a.output), a.smap, x.root)
	if err != nil {
		if msg == "" {
			msg = err.Error()
		}
		return "", explainToolFailure(a, msg)
	}
	res := cachedResult{Stderr: cleanToolOutput(string(stderr), tmp, a.output)}
	if a.depfile {
		deps, err := readDepfile(dep)
		if err != nil {
			return "", fmt.Sprintf("reading the compiler's dependency file: %v", err)
		}
		for _, d := range deps {
			h, err := x.hashRel(d)
			if err != nil {
				return "", fmt.Sprintf("hashing %s: %v", d, err)
			}
			res.Deps = append(res.Deps, [2]string{d, h})
		}
	}
	if x.inputsUnchanged(a) {
		o, err := x.cache.storeBlob(tmp)
		if err != nil {
			return "", fmt.Sprintf("compile cache: %v", err)
		}
		o.Name = "out"
		res.Outputs = []cachedOutput{o}
		if err := x.cache.store(key, res); err != nil {
			return "", fmt.Sprintf("compile cache: %v", err)
		}
	}
	if err := os.Chmod(tmp, os.FileMode(a.perm)); err != nil {
		return "", err.Error()
	}
	if err := os.Rename(tmp, out); err != nil {
		return "", err.Error()
	}
	return msg, ""
}

// inputsUnchanged re-reads a's inputs after its tool ran. Another build in
// the same tree (say with other archs) may have replaced an object file
// between hashing and archiving; the result is then still written to the
// build tree but not recorded in the cache under a key it does not match.
func (x *executor) inputsUnchanged(a *action) bool {
	for _, in := range a.inputs {
		p := filepath.Join(x.root, filepath.FromSlash(in))
		before, err1 := x.hasher.hash(p)
		now, err2 := hashPath(p)
		if err1 != nil || err2 != nil || before != now {
			return false
		}
	}
	return true
}

// tmpSeq numbers temporary outputs within this process; with the pid and
// a random part the names are unique across concurrent builds.
var tmpSeq atomic.Int64

func tempName(out string) string {
	return fmt.Sprintf("%s.tmp%d.%d.%08x", out, os.Getpid(), tmpSeq.Add(1), rand.Uint32())
}

// cleanToolOutput replaces the temporary output name with the real one, so
// cached messages do not depend on which process compiled.
func cleanToolOutput(s, tmp, out string) string {
	if s == "" {
		return ""
	}
	return strings.ReplaceAll(s, tmp, out)
}

// explainToolFailure adds advice to failures users commonly meet.
func explainToolFailure(a *action, msg string) string {
	name := filepath.Base(a.tool)
	switch {
	case strings.Contains(msg, "invalid target ID"), strings.Contains(msg, "Unsupported gpu architecture"), strings.Contains(msg, "unsupported gpu architecture"):
		return msg + fmt.Sprintf("\nhint: the installed %s (%s) does not support one of %s; pick others with --%s-arch or install a newer toolkit",
			name, a.tc.VersionLine(), strings.Join(a.tc.Archs, ","), a.tc.Platform)
	case strings.Contains(msg, "unsupported GNU version"):
		host := a.tc.HostCompiler
		if host == "" {
			host = "the default g++"
		}
		return msg + "\nhint: this nvcc does not support " + host + " as its host compiler; set HIPGEN_NVCC_CCBIN to a g++ it supports (g++-11 for CUDA 11.8), or add -allow-unsupported-compiler to cuda_flags at your own risk"
	}
	return msg
}

// readDepfile parses a make-style dependency file as written by -MD: the
// prerequisites of its first rule, with backslash-newline continuations
// and backslash-escaped spaces.
func readDepfile(p string) ([]string, error) {
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	data = bytes.ReplaceAll(data, []byte("\\\r\n"), []byte(" "))
	data = bytes.ReplaceAll(data, []byte("\\\n"), []byte(" "))
	s := string(data)
	if i := strings.Index(s, "\n"); i >= 0 {
		s = s[:i] // nvcc and clang write one rule; -MP phony rules follow
	}
	colon := strings.Index(s, ": ")
	if colon < 0 {
		return nil, fmt.Errorf("%s: no rule found", p)
	}
	var deps []string
	seen := map[string]bool{}
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 && !seen[cur.String()] {
			seen[cur.String()] = true
			deps = append(deps, filepath.Clean(cur.String()))
		}
		cur.Reset()
	}
	rest := s[colon+2:]
	for i := 0; i < len(rest); i++ {
		c := rest[i]
		switch {
		case c == '\\' && i+1 < len(rest) && rest[i+1] == ' ':
			cur.WriteByte(' ')
			i++
		case c == ' ' || c == '\t':
			flush()
		default:
			cur.WriteByte(c)
		}
	}
	flush()
	return deps, nil
}

// quoteArgs prints a command line for logs.
func quoteArgs(args []string) string {
	var b strings.Builder
	for i, a := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		if strings.ContainsAny(a, " \t\"'$[]") {
			a = strconv.Quote(a)
		}
		b.WriteString(a)
	}
	return b.String()
}
