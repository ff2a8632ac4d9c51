package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"sync"

	"github.com/hipgen/hipgen/builder"
	"github.com/hipgen/hipgen/diag"
	"github.com/hipgen/hipgen/internal/rootpath"
	"github.com/hipgen/hipgen/sources"
)

// translateJob is one file of a tree translation: its slash path relative
// to the project root, and what became of it.
type translateJob struct {
	rel     string
	key     string
	out     []byte
	outHash string
	diags   []diag.Diagnostic
	stats   sources.Stats
	skipped bool // unchanged since the last run: diagnostics replayed
	stale   bool // --check: the output is missing or differs
	written bool
	outStat outStat // the output as it is now on disk
	err     error
}

// treeTranslation translates a set of files, and with closure the project
// headers they include, on n goroutines. Each file is read and lexed once:
// its #include lines are resolved against the project (next to the file,
// then in the include directories) as it is translated, and the headers
// they reach join the work. Outputs are written as they are done.
type treeTranslation struct {
	root, outAbs string
	includeDirs  []string
	opts         sources.Options
	closure      bool
	check        bool
	// state is loaded while the first files are read and lexed; ready
	// is closed when it is.
	state translateState
	ready chan struct{}
	fs    *projectFS
	tree  *builder.Tree

	mu   sync.Mutex
	jobs map[string]*translateJob
	wg   sync.WaitGroup
	work chan string
}

// run translates files and returns every job, sorted by path.
func (t *treeTranslation) run(files []string, n int) []*translateJob {
	if n < 1 {
		n = 1
	}
	t.jobs = map[string]*translateJob{}
	t.work = make(chan string, len(files))
	// The biggest files first, so that none of them starts last and
	// keeps the others waiting.
	files = slices.Clone(files)
	size := make(map[string]int64, len(files))
	for _, f := range files {
		if st, err := os.Stat(filepath.Join(t.root, filepath.FromSlash(f))); err == nil {
			size[f] = st.Size()
		}
	}
	sort.SliceStable(files, func(a, b int) bool { return size[files[a]] > size[files[b]] })
	t.fs = newProjectFS(t.root)
	if !t.check {
		t.tree = builder.NewTree(t.outAbs)
	}
	for _, f := range files {
		t.add(f)
	}
	go func() {
		t.wg.Wait()
		close(t.work)
	}()
	var workers sync.WaitGroup
	for w := 0; w < n; w++ {
		workers.Add(1)
		go func() {
			defer workers.Done()
			for rel := range t.work {
				t.translate(t.jobs[rel])
				t.wg.Done()
			}
		}()
	}
	workers.Wait()
	out := make([]*translateJob, 0, len(t.jobs))
	for _, j := range t.jobs {
		out = append(out, j)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].rel < out[b].rel })
	return out
}

// add queues rel unless it already is. The job is registered before the
// caller's own job is done, so the queue cannot drain early.
func (t *treeTranslation) add(rel string) {
	t.mu.Lock()
	if _, ok := t.jobs[rel]; ok {
		t.mu.Unlock()
		return
	}
	t.jobs[rel] = &translateJob{rel: rel}
	t.mu.Unlock()
	t.wg.Add(1)
	select {
	case t.work <- rel:
	default:
		go func() { t.work <- rel }()
	}
}

func (t *treeTranslation) translate(j *translateJob) {
	src, err := t.fs.read(j.rel)
	if err != nil {
		j.err = err
		return
	}
	u := sources.Parse(j.rel, src)
	opts := t.opts
	opts.LocalIncludes = t.localIncludes(j.rel, u.Includes())
	j.key = sources.CacheKey(j.rel, src, opts)
	outRel := sources.OutputPath(j.rel)
	<-t.ready
	if st, ok := t.state.Files[j.rel]; ok && st.Key == j.key && outputMatches(t.outAbs, j.rel, st) {
		j.skipped, j.diags, j.outHash = true, fromStateDiags(st.Diags), st.OutHash
		return
	}
	j.out, j.diags, j.stats = u.Translate(opts)
	j.outHash = hashBytes(j.out)
	outAbs := filepath.Join(t.outAbs, filepath.FromSlash(outRel))
	if t.check {
		old, err := os.ReadFile(outAbs)
		j.stale = err != nil || !bytes.Equal(old, j.out)
		return
	}
	if j.written, j.err = t.tree.Write(outRel, j.out); j.err == nil {
		if st, err := os.Stat(outAbs); err == nil {
			j.outStat = statOf(st)
		}
	}
}

// localIncludes returns the include paths of the file rel that resolve to
// project files, sorted and without duplicates, and queues those files
// when following the closure. A quoted include is looked up next to the
// including file first, then in the include directories; an angled one
// only in the include directories. Paths that would leave the root count
// as not found.
func (t *treeTranslation) localIncludes(rel string, incs []sources.Include) []string {
	var local []string
	seen := map[string]bool{}
	for _, inc := range incs {
		if seen[inc.Path] {
			continue
		}
		seen[inc.Path] = true
		for _, c := range sources.IncludeCandidates(rel, inc, t.includeDirs) {
			if !t.fs.exists(c) {
				continue
			}
			local = append(local, inc.Path)
			if t.closure {
				t.add(c)
			}
			break
		}
	}
	sort.Strings(local)
	return local
}

// projectFS reads files of the project root from many goroutines. Paths
// are slash paths relative to the root; a path whose directories or final
// symbolic link lead outside the root is refused.
type projectFS struct {
	root   string
	inside *rootpath.Dirs
	mu     sync.Mutex
	exist  map[string]bool
}

func newProjectFS(root string) *projectFS {
	return &projectFS{root: root, inside: rootpath.NewDirs(root), exist: map[string]bool{}}
}

var errOutsideRoot = errors.New("outside the project root (through a symbolic link)")

func (p *projectFS) read(rel string) ([]byte, error) {
	if !p.inside.Inside(filepath.FromSlash(rel)) {
		return nil, fmt.Errorf("%s: %w", rel, errOutsideRoot)
	}
	return os.ReadFile(filepath.Join(p.root, filepath.FromSlash(rel)))
}

// exists reports whether rel names a regular file inside the root.
func (p *projectFS) exists(rel string) bool {
	p.mu.Lock()
	ok, done := p.exist[rel]
	p.mu.Unlock()
	if done {
		return ok
	}
	ok = p.inside.Inside(filepath.FromSlash(rel))
	if ok {
		st, err := os.Stat(filepath.Join(p.root, filepath.FromSlash(rel)))
		ok = err == nil && st.Mode().IsRegular()
	}
	p.mu.Lock()
	p.exist[rel] = ok
	p.mu.Unlock()
	return ok
}

// translateTree translates files (with the headers they reach unless
// --only) into outAbs, reports diagnostics and saves the state.
func translateTree(e *env, o *translateFlags, root, outAbs string, files, includeDirs []string, opts sources.Options) int {
	tt := &treeTranslation{root: root, outAbs: outAbs, includeDirs: includeDirs, opts: opts,
		closure: !o.only, check: o.check, ready: make(chan struct{})}
	go func() {
		tt.state = loadTranslateState(outAbs)
		close(tt.ready)
	}()
	jobs := tt.run(files, o.jobs)
	<-tt.ready
	state := tt.state

	var all []diag.Diagnostic
	var stale []string
	written, skipped := 0, 0
	updates := map[string]fileState{}
	mapped := map[string]int{}
	var firstErr error
	for _, j := range jobs {
		if j.err != nil {
			if firstErr == nil {
				firstErr = j.err
			}
			continue
		}
		all = append(all, j.diags...)
		if j.skipped {
			skipped++
			updates[j.rel] = state.Files[j.rel]
			continue
		}
		for f, c := range j.stats.Mapped {
			mapped[f] += c
		}
		updates[j.rel] = fileState{Key: j.key, OutHash: j.outHash, OutStat: j.outStat, Diags: toStateDiags(j.diags)}
		if j.stale {
			stale = append(stale, sources.OutputPath(j.rel))
		}
		if j.written {
			written++
		}
	}
	if firstErr != nil {
		return e.errorf(exitUsage, "translate: %v", firstErr)
	}
	diag.Sort(all)
	if err := printDiags(e, o.format, all, false); err != nil {
		return e.errorf(exitUsage, "translate: %v", err)
	}
	if !o.check {
		if tt.tree == nil {
			tt.tree = builder.NewTree(outAbs)
		}
		if err := updateTranslateState(tt.tree, root, outAbs, state, updates); err != nil {
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
