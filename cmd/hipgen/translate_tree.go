package main

import (
	"bytes"
	"cmp"
	"container/heap"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"sync"
	"syscall"

	"github.com/hipgen/hipgen/builder"
	"github.com/hipgen/hipgen/diag"
	"github.com/hipgen/hipgen/internal/assist"
	"github.com/hipgen/hipgen/internal/rootpath"
	"github.com/hipgen/hipgen/internal/sysfile"
	"github.com/hipgen/hipgen/sources"
)

// translateJob is one file of a tree translation: its slash path relative
// to the project root, and what became of it.
type translateJob struct {
	rel   string
	size  int64     // the size to expect (see sizeOf)
	state fileState // what the state records for it after this run
	stats sources.Stats
	// text is the diagnostics as text lines, formatted by the worker
	// (for --format text), so that printing them all is one write.
	text []byte
	// The worker also tells whether the diagnostics are sorted and hold
	// an error, so that the report need not look at each again.
	diagsSorted, diagsErr bool
	// record is the state's entry for the file (see encodeRecord),
	// also made by the worker.
	record  []byte
	skipped bool // unchanged since the last run: diagnostics replayed
	stale   bool // --check: the output is missing or differs
	written bool
	err     error
	// host: a C or C++ source that a directory offered (see addHost),
	// translated only when it uses CUDA or a file that is translated
	// includes it (required). unused: its translation found no use of
	// CUDA (the worker's own note); dropped: so the job is done without
	// an output. required and dropped are guarded by treeTranslation.mu.
	host, required, unused, dropped bool
	// A job done before the listing was waits, its output in
	// unwritten, to be written (or, if the listing failed, dropped).
	waiting   bool
	unwritten []byte
}

// treeTranslation translates a set of files, and with closure the project
// headers they include, on n goroutines. Each file is read once and lexed
// only when it is translated (the state recalls the #include lines of an
// unchanged one): its #include lines are resolved against the project
// (next to the file, then in the include directories), and the headers
// they reach join the work. Outputs are written as they are done.
type treeTranslation struct {
	root, outAbs string
	includeDirs  []string
	opts         sources.Options
	closure      bool
	check        bool
	formatText   bool // diagnostics print as text: see translateJob.text
	// state is loaded while the sources are listed; ready is closed
	// when it is.
	state translateState
	ready chan struct{}
	fs    *projectFS
	tree  *builder.Tree
	// listed is closed when every file asked for has been added, with
	// listErr set if listing them failed: then nothing is written.
	listed  chan struct{}
	listErr error

	// The work: jobs by path, and those not started yet in queue, the
	// biggest first so that none of them starts last and keeps the
	// others waiting. pending counts jobs added and not done; with fed,
	// no more will come from the listing once they are done (a job may
	// add the headers it includes).
	mu      sync.Mutex
	more    sync.Cond // signalled when queue grows or the work is over
	jobs    map[string]*translateJob
	queue   jobQueue
	pending int
	fed     bool
	// unwritten holds the jobs translated before the listing was over,
	// which wait for it to be written; pending still counts them.
	unwritten []*translateJob
	workers   sync.WaitGroup
	// done is closed when the work is over: every job done, or none to
	// do. The goroutine that sees it first runs onDone (see finish)
	// before the workers stop, on the thread it is running on: the state
	// is saved there while the report is printed, with no thread to wake.
	done     chan struct{}
	doneOnce sync.Once
	onDone   func(jobs []*translateJob)
	sorted   []*translateJob // every job, by path, once done is closed
	setAside []*translateJob // the host sources left out (see addHost), by path, once done is closed
	// headerMacros answers questions about the macros of project
	// headers (see headers).
	headersOnce  sync.Once
	headerMacros *sources.HeaderMacros
	// spare holds the buffers of the workers that are done, for the
	// report and the state: memory already touched costs no page
	// faults.
	spare [][]byte
	// gpuReach tells of project files looked at by reachesGPU whether
	// they reach a CUDA header (path -> bool).
	gpuReach sync.Map
}

// jobQueue is a max-heap of jobs by size, then path.
type jobQueue []*translateJob

func (q jobQueue) Len() int { return len(q) }
func (q jobQueue) Less(a, b int) bool {
	return q[a].size > q[b].size || q[a].size == q[b].size && q[a].rel < q[b].rel
}
func (q jobQueue) Swap(a, b int) { q[a], q[b] = q[b], q[a] }
func (q *jobQueue) Push(x any)   { *q = append(*q, x.(*translateJob)) }
func (q *jobQueue) Pop() any {
	old := *q
	j := old[len(old)-1]
	*q = old[:len(old)-1]
	return j
}

// start starts n workers; files may be added before and after.
func (t *treeTranslation) start(n int) {
	if n < 1 {
		n = 1
	}
	if !t.check {
		t.tree = builder.NewTree(t.outAbs)
	}
	for w := 0; w < n; w++ {
		t.workers.Add(1)
		go func() {
			defer t.workers.Done()
			// Each source is read into the last one's storage, and each
			// output is made in the last one's.
			var buf, outBuf []byte
			for {
				// Parts of other jobs (a directory of the walk, a
				// chunk of a large file) come before the next file.
				helpOthers()
				// And so do goroutines made ready on this processor
				// during the last job (the walk's, one waiting for a
				// lock the job held): with every processor busy they
				// would otherwise wait for the next job to end too.
				runtime.Gosched()
				t.mu.Lock()
				for len(t.queue) == 0 && !(t.fed && (t.pending == 0 || len(t.unwritten) > 0)) {
					t.more.Wait()
				}
				var j *translateJob
				switch {
				case t.fed && len(t.unwritten) > 0:
					j = t.unwritten[len(t.unwritten)-1]
					t.unwritten = t.unwritten[:len(t.unwritten)-1]
					t.mu.Unlock()
					t.write(j, j.unwritten)
					j.waiting, j.unwritten = false, nil
				case len(t.queue) > 0:
					j = heap.Pop(&t.queue).(*translateJob)
					t.mu.Unlock()
					buf, outBuf = t.translate(j, buf, outBuf)
					if j.err == nil && !j.unused {
						ds := j.state.Diags
						j.diagsSorted, j.diagsErr = slices.IsSortedFunc(ds, diag.Compare), diag.HasErrors(ds)
						if t.formatText {
							j.text = diag.AppendText(nil, ds)
						}
					}
					if j.waiting {
						// Its output waits for the listing:
						// the next one needs storage of its own.
						outBuf = nil
						t.mu.Lock()
						t.unwritten = append(t.unwritten, j)
						t.mu.Unlock()
						continue
					}
				default:
					t.spare = append(t.spare, buf, outBuf)
					t.mu.Unlock()
					t.finish()
					return
				}
				if j.unused {
					t.mu.Lock()
					if j.required {
						// A translated file includes it after all.
						j.unused, j.skipped = false, false
						heap.Push(&t.queue, j)
						t.more.Signal()
						t.mu.Unlock()
						continue
					}
					j.dropped = true
					t.mu.Unlock()
				}
				if j.err == nil && !t.check && !j.skipped {
					j.record = encodeRecord(j.rel, j.state)
				}
				t.mu.Lock()
				t.pending--
				over := t.pending == 0 && t.fed
				if over {
					t.more.Broadcast()
				}
				t.mu.Unlock()
				if over {
					t.finish()
				}
			}
		}()
	}
}

// helpOthers runs the parts of other jobs that wait for a goroutine (see
// assist): a worker asks between the steps of its own job too, since with
// every worker busy the parts of a large file would otherwise wait for
// one to finish a whole file.
func helpOthers() {
	for assist.Help() {
	}
}

// spareBuffer returns an empty buffer with room for n bytes, a worker's
// if one that stopped has that much.
func (t *treeTranslation) spareBuffer(n int) []byte {
	t.mu.Lock()
	defer t.mu.Unlock()
	for i, b := range t.spare {
		if cap(b) >= n {
			t.spare[i] = nil
			return b[:0]
		}
	}
	return make([]byte, 0, n)
}

// feedDone says that the listing has added every file, or failed with err.
func (t *treeTranslation) feedDone(err error) {
	t.listErr = err
	close(t.listed)
	t.mu.Lock()
	t.fed = true
	t.more.Broadcast()
	t.mu.Unlock()
}

// wait waits for the work to be over and returns every job, sorted by
// path; onDone may still be running, and reads the same slice.
func (t *treeTranslation) wait() []*translateJob {
	<-t.done
	return t.sorted
}

// finish says that the work is over; the first call sorts the jobs and
// runs onDone.
func (t *treeTranslation) finish() {
	t.doneOnce.Do(func() {
		t.sorted = make([]*translateJob, 0, len(t.jobs))
		for _, j := range t.jobs {
			if j.dropped {
				t.setAside = append(t.setAside, j)
				continue
			}
			t.sorted = append(t.sorted, j)
		}
		sort.Slice(t.sorted, func(a, b int) bool { return t.sorted[a].rel < t.sorted[b].rel })
		sort.Slice(t.setAside, func(a, b int) bool { return t.setAside[a].rel < t.setAside[b].rel })
		close(t.done)
		if t.onDone != nil {
			t.onDone(t.sorted)
		}
	})
}

// add queues the files rels that are not queued yet. The jobs are counted
// before the caller's own job is done, so the work cannot end early.
func (t *treeTranslation) add(rels ...string) { t.queueFiles(false, rels) }

// addHost queues the C and C++ sources rels that a directory offers: each
// is translated, and the translation kept, when it uses CUDA (the
// translation changes it), when a project header it reaches includes a
// CUDA or PyTorch CUDA header (its translation must include the
// translated header), or when a translated file includes it. The others
// are left out: a C++ project's host code is not copied into the tree.
func (t *treeTranslation) addHost(rels ...string) { t.queueFiles(true, rels) }

func (t *treeTranslation) queueFiles(host bool, rels []string) {
	t.mu.Lock()
	var fresh []*translateJob
	for _, rel := range rels {
		j, ok := t.jobs[rel]
		switch {
		case !ok: // a repeat in rels is dropped below
			fresh = append(fresh, &translateJob{rel: rel, host: host})
		case !host && j.host && !j.required:
			j.required = true
			if j.dropped {
				j.dropped, j.unused = false, false
				heap.Push(&t.queue, j)
				t.pending++
				t.more.Signal()
			}
		}
	}
	t.mu.Unlock()
	if len(fresh) == 0 {
		return
	}
	for _, j := range fresh {
		j.size = t.sizeOf(j.rel)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, j := range fresh {
		if _, ok := t.jobs[j.rel]; ok {
			continue
		}
		t.jobs[j.rel] = j
		heap.Push(&t.queue, j)
		t.pending++
		t.more.Signal()
	}
}

// translate does the job j, reading its source into buf's storage and
// making its output in outBuf's, and returns that storage for the next
// job: nothing kept from a job refers to its source or output (the
// translator copies what it keeps).
func (t *treeTranslation) translate(j *translateJob, buf, outBuf []byte) ([]byte, []byte) {
	src, err := t.fs.read(j.rel, j.size, buf)
	if err != nil {
		j.err = err
		return buf, outBuf
	}
	<-t.ready
	opts := t.opts
	opts.IncludesResolved = true // resolveIncludes looks every include up
	if last, ok := t.state.Files[j.rel]; ok {
		// The includes recorded last time are the source's as long as
		// its content is the same, which the key with the local
		// includes then recorded tells; they must also resolve as
		// they did, and the headers must say what they said of the
		// macros the translation asked about.
		opts.LocalIncludes, opts.IncludedMacros = last.Local, decodeMacros(last.Macros)
		if sources.CacheKey(j.rel, src, opts) == last.Key {
			local, found := t.resolveIncludes(j.rel, last.Includes)
			if slices.Equal(local, last.Local) && t.sameMacros(j.rel, last) {
				switch {
				case last.setAside():
					// Its translation would change nothing again; it
					// stays out unless what decided that changed.
					if j.host && !t.isRequired(j) && !t.reachesGPU(found) {
						j.unused, j.skipped, j.state = true, true, last
						return src, outBuf
					}
				case outputMatches(t.outAbs, j.rel, last):
					if j.host && last.OutHash == unchangedHash(j.rel, src) && !t.isRequired(j) && !t.reachesGPU(found) {
						// Translated last time only for what the headers it
						// reaches included then: set aside now.
						j.unused, j.state = true, last.asSetAside()
						return src, outBuf
					}
					t.follow(found)
					j.skipped, j.state = true, last
					return src, outBuf
				}
			}
		}
		opts.IncludedMacros = nil
	}
	helpOthers()
	u := sources.Parse(j.rel, src)
	// Should the walk ask about macros (see below), the project headers
	// are read meanwhile, by a worker that is free or a goroutine.
	var reading assist.Group
	defer reading.Wait()
	u.OnAsk(func() {
		reading.Go(func() { t.headers().Read(j.rel, u.Includes()) })
	})
	helpOthers()
	var incs []string
	for _, inc := range u.Includes() {
		incs = append(incs, includeRecord(inc))
	}
	local, found := t.resolveIncludes(j.rel, incs)
	if !j.host {
		t.follow(found)
	}
	opts.LocalIncludes = local
	out, diags, stats := u.TranslateInto(outBuf, opts)
	if len(stats.MacrosAsked) > 0 {
		// Code the file reports on is under a test of a macro it does
		// not define: if a project header defines it only where hipcc
		// never compiles, that code is never compiled for AMD GPUs.
		diags, stats, opts = t.headers().Settle(u, diags, stats, opts)
	}
	j.state = fileState{Key: sources.CacheKey(j.rel, src, opts), SrcSize: int64(len(src)), Includes: incs, Local: local,
		Asked: stats.MacrosAsked, Macros: encodeMacros(opts.IncludedMacros)}
	if j.host {
		if !t.isRequired(j) && unchanged(j.rel, src, out) && !t.reachesGPU(found) {
			// Set aside: recorded without an output hash (see
			// fileState.setAside) or diagnostics.
			j.unused = true
			return src, out
		}
		t.follow(found)
	}
	j.state.Diags = diags
	j.stats = stats
	helpOthers()
	j.state.OutHash = hashBytes(out)
	if t.check {
		old, err := os.ReadFile(filepath.Join(t.outAbs, filepath.FromSlash(sources.OutputPath(j.rel))))
		j.stale = err != nil || !bytes.Equal(old, out)
		return src, out
	}
	select {
	case <-t.listed:
		t.write(j, out)
		return src, out
	default:
		// The listing is not over: the worker goes on with other
		// files, and the output is written when it is.
		j.waiting, j.unwritten = true, out
		return src, nil
	}
}

// isRequired reports whether a translated file includes the host source of
// j (see translateJob.required).
func (t *treeTranslation) isRequired(j *translateJob) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return j.required
}

// unchanged reports whether out, the translation of the source rel, is
// src under the generated-file marker: nothing of CUDA in it.
func unchanged(rel string, src, out []byte) bool {
	marker := sources.MarkerLine(rel)
	return len(out) == len(marker)+len(src) && string(out[:len(marker)]) == marker && bytes.Equal(out[len(marker):], src)
}

// unchangedHash is the output hash (fileState.OutHash) of a translation of
// the source rel that is unchanged: src under the generated-file marker.
func unchangedHash(rel string, src []byte) string {
	return hashBytes(append([]byte(sources.MarkerLine(rel)), src...))
}

// reachesGPU reports whether a project file of files, or one that they
// include directly or not, includes a CUDA or PyTorch CUDA header (see
// sources.GPUHeader).
func (t *treeTranslation) reachesGPU(files []string) bool {
	var open []string // the files being looked at, the path to the current one
	// reaches returns the answer for rel, and whether it is final: a
	// "no" that met a file still open (an include cycle) holds only
	// for this look-up.
	var reaches func(rel string) (yes, final bool)
	reaches = func(rel string) (bool, bool) {
		if v, ok := t.gpuReach.Load(rel); ok {
			return v.(bool), true
		}
		if slices.Contains(open, rel) {
			return false, false
		}
		f := t.fs.lookup(rel)
		src, err := t.fs.read(rel, f.size, nil)
		if err != nil {
			return false, true // reported, if ever, by its own translation
		}
		open = append(open, rel)
		defer func() { open = open[:len(open)-1] }()
		final := true
		for _, inc := range sources.Includes(src) {
			next := t.findInclude(rel, inc)
			if next == "" {
				if sources.GPUHeader(inc.Path) {
					t.gpuReach.Store(rel, true)
					return true, true
				}
				continue
			}
			yes, fin := reaches(next)
			if yes {
				t.gpuReach.Store(rel, true)
				return true, true
			}
			final = final && fin
		}
		if final {
			t.gpuReach.Store(rel, false)
		}
		return false, final
	}
	for _, f := range files {
		if yes, _ := reaches(f); yes {
			return true
		}
	}
	return false
}

// write writes the output out of the job j, unless the listing failed:
// nothing is written unless every file asked for was found.
func (t *treeTranslation) write(j *translateJob, out []byte) {
	if t.listErr != nil {
		return
	}
	j.written, j.state.OutStat, j.err = t.tree.WriteStamp(sources.OutputPath(j.rel), out)
}

// sizeOf returns the size to expect of the source rel: as the last run
// read it, else as a look-up finds it.
func (t *treeTranslation) sizeOf(rel string) int64 {
	<-t.ready
	if last, ok := t.state.Files[rel]; ok {
		return last.SrcSize
	}
	return t.fs.lookup(rel).size
}

// resolveIncludes returns the paths of the #include lines incs (as
// includeRecord writes them) of the file rel that resolve to project
// files, sorted and without duplicates, and the files they resolve to. A
// quoted include is looked up next to the including file first, then in
// the include directories; an angled one only in the include directories.
// Paths that would leave the root count as not found.
func (t *treeTranslation) resolveIncludes(rel string, incs []string) (local, found []string) {
	seen := map[string]bool{}
	for _, r := range incs {
		inc := includeOfRecord(r)
		if seen[inc.Path] {
			continue
		}
		seen[inc.Path] = true
		if c := t.findInclude(rel, inc); c != "" {
			local = append(local, inc.Path)
			found = append(found, c)
		}
	}
	sort.Strings(local)
	return local, found
}

// findInclude returns the project file that the include inc of rel
// names (next to rel, then in the include directories), or "".
func (t *treeTranslation) findInclude(rel string, inc sources.Include) string {
	for _, c := range sources.IncludeCandidates(rel, inc, t.includeDirs) {
		if t.fs.exists(c) {
			return c
		}
	}
	return ""
}

// headers returns what answers the translations' questions about the
// macros of the project headers, made on first need: most runs never ask.
func (t *treeTranslation) headers() *sources.HeaderMacros {
	t.headersOnce.Do(func() {
		read := func(p string) ([]byte, error) {
			f := t.fs.lookup(p)
			if !f.inside || !f.regular {
				return nil, os.ErrNotExist
			}
			return t.fs.read(p, f.size, nil)
		}
		t.headerMacros = sources.NewHeaderMacros(read, t.includeDirs, t.opts)
	})
	return t.headerMacros
}

// sameMacros reports whether the project headers still say what they said
// last time of the macros the translation of rel asked about.
func (t *treeTranslation) sameMacros(rel string, last fileState) bool {
	if len(last.Asked) == 0 {
		return true
	}
	includes := make([]sources.Include, len(last.Includes))
	for i, r := range last.Includes {
		includes[i] = includeOfRecord(r)
	}
	return slices.Equal(encodeMacros(t.headers().Ask(rel, includes, last.Asked)), last.Macros)
}

// follow queues the included files when following the closure.
func (t *treeTranslation) follow(files []string) {
	if t.closure && len(files) > 0 {
		t.add(files...)
	}
}

// projectFS reads files of the project root from many goroutines. Paths
// are slash paths relative to the root; a path whose directories or final
// symbolic link lead outside the root is refused.
type projectFS struct {
	root   string
	inside *rootpath.Dirs
	// files holds what each path looked up was (path -> projectFile): a
	// sync.Map, read by every worker resolving includes without waiting
	// on the others.
	files sync.Map
}

// projectFile is what a look-up found at a path.
type projectFile struct {
	inside  bool // in the root, its symbolic links followed
	regular bool // a regular file, maybe through a symbolic link
	size    int64
}

func newProjectFS(root string) *projectFS {
	return &projectFS{root: root, inside: rootpath.NewDirs(root)}
}

var errOutsideRoot = errors.New("outside the project root (through a symbolic link)")

// lookup reports what rel is, looking once per path: one lstat of the
// file, its directories being checked once for all the files in them.
func (p *projectFS) lookup(rel string) projectFile {
	if f, done := p.files.Load(rel); done {
		return f.(projectFile)
	}
	var f projectFile
	native := filepath.FromSlash(rel)
	if f.inside = p.inside.Inside(filepath.Dir(native)); f.inside {
		full := filepath.Join(p.root, native)
		st, err := sysfile.Lstat(full)
		if err == nil && sysfile.IsLink(&st) {
			f.inside = p.inside.Inside(native)
			st, err = sysfile.Stat(full)
		}
		f.regular = err == nil && sysfile.IsRegular(&st)
		f.size = st.Size
	}
	p.files.Store(rel, f)
	return f
}

// read returns the content of rel, expected to hold size bytes, in buf's
// storage when it is big enough. The file's directory must be inside the
// root, and the file is read without following a symbolic link, whose
// target is checked only when there is one.
func (p *projectFS) read(rel string, size int64, buf []byte) ([]byte, error) {
	native := filepath.FromSlash(rel)
	if !p.inside.Inside(filepath.Dir(native)) {
		return nil, fmt.Errorf("%s: %w", rel, errOutsideRoot)
	}
	full := filepath.Join(p.root, native)
	data, err := sysfile.ReadSized(full, true, size, buf)
	if errors.Is(err, syscall.ELOOP) {
		if !p.inside.Inside(native) {
			return nil, fmt.Errorf("%s: %w", rel, errOutsideRoot)
		}
		data, err = sysfile.ReadSized(full, false, size, buf)
	}
	return data, err
}

// exists reports whether rel names a regular file inside the root.
func (p *projectFS) exists(rel string) bool {
	f := p.lookup(rel)
	return f.inside && f.regular
}

// newTreeTranslation prepares translating into outAbs the files of fs:
// it starts reading the state there while the caller lists the files.
func newTreeTranslation(fs *projectFS, outAbs string, o *translateFlags) *treeTranslation {
	t := &treeTranslation{root: fs.root, outAbs: outAbs, fs: fs, closure: !o.only, check: o.check, formatText: o.format == "text", ready: make(chan struct{}),
		listed: make(chan struct{}), done: make(chan struct{}), jobs: map[string]*translateJob{}}
	t.more.L = &t.mu
	go func() {
		t.state = loadTranslateState(outAbs)
		close(t.ready)
	}()
	return t
}

// translateTree translates the files that feed lists (with the headers
// they reach unless --only) as tt prepared, as they are listed, reports
// diagnostics and saves the state. The translation starts when version
// has told the ROCm version to translate for.
func translateTree(e *env, o *translateFlags, tt *treeTranslation, feed func(found func(...string)) error, includeDirs []string, opts sources.Options, version func() (sources.Version, []string, error)) int {
	tt.includeDirs = includeDirs
	root, outAbs := tt.root, tt.outAbs
	listed := make(chan error, 1)
	go func() { listed <- feed(tt.add) }()
	ver, missing, verErr := version()
	if verErr != nil {
		tt.feedDone(<-listed)
		return e.errorf(exitUsage, "translate: %v", verErr)
	}
	opts.ROCmVersion = ver
	opts.MissingLibraries = missing
	tt.opts = opts
	// The state is saved, by the worker that ends the work, while the
	// diagnostics are printed here; nothing is saved unless every file
	// asked for was found and read.
	var saveErr error
	var retired []retiredOutput
	tt.onDone = func(jobs []*translateJob) {
		if o.check || tt.listErr != nil || len(jobs) == 0 {
			return
		}
		stateSize := 1 << 10
		updates := make([]stateEntry, 0, len(jobs)+len(tt.setAside))
		for _, j := range jobs {
			if j.err != nil {
				return
			}
		}
		// Both lists are in path order, and so is their merge.
		a, b := jobs, tt.setAside
		for len(a) > 0 || len(b) > 0 {
			var j *translateJob
			if len(b) == 0 || len(a) > 0 && a[0].rel < b[0].rel {
				j, a = a[0], a[1:]
			} else {
				j, b = b[0], b[1:]
			}
			stateSize += len(j.record)
			updates = append(updates, stateEntry{path: j.rel, state: &j.state, record: j.record})
		}
		<-tt.ready
		retired, saveErr = updateTranslateState(tt.tree, root, outAbs, tt.state, updates, tt.spareBuffer(stateSize)) // start made the tree
	}
	defer tt.workers.Wait() // the state is saved
	tt.start(o.jobs)
	listErr := <-listed
	tt.feedDone(listErr)
	jobs := tt.wait()
	if listErr != nil {
		return e.errorf(exitUsage, "translate: %v", listErr)
	}
	if len(jobs) == 0 {
		return e.errorf(exitUsage, "translate: no files to translate")
	}
	for _, j := range jobs {
		if j.err != nil {
			return e.errorf(exitUsage, "translate: %v", j.err)
		}
	}
	var stale []string
	written, skipped := 0, 0
	mapped := map[string]int{}
	// Each file's diagnostics are sorted (the state keeps them so) and
	// the jobs come in path order, so all of them in job order are
	// sorted too unless a file reports on another (an included header):
	// sorted tells.
	sorted, hasErrors := true, false
	var last *diag.Diagnostic
	for _, j := range jobs {
		if ds := j.state.Diags; len(ds) > 0 {
			sorted = sorted && (last == nil || diag.Compare(*last, ds[0]) <= 0) && j.diagsSorted
			last = &ds[len(ds)-1]
			hasErrors = hasErrors || j.diagsErr
		}
		if j.skipped {
			skipped++
			continue
		}
		if o.stats {
			for f, c := range j.stats.Mapped {
				mapped[f] += c
			}
		}
		if j.stale {
			stale = append(stale, sources.OutputPath(j.rel))
		}
		if j.written {
			written++
		}
	}
	var all []diag.Diagnostic
	if !tt.formatText || !sorted || o.stats {
		for _, j := range jobs {
			all = append(all, j.state.Diags...)
		}
		diag.Sort(all)
	}
	var printErr error
	if tt.formatText && sorted {
		// The workers' text is the whole report, written as it is.
		texts := make([][]byte, 0, len(jobs))
		for _, j := range jobs {
			if len(j.text) > 0 {
				texts = append(texts, j.text)
			}
		}
		printErr = sysfile.WriteBuffers(e.Stderr, texts)
	} else {
		printErr = printDiags(e, o.format, all, false)
	}
	tt.workers.Wait()
	for _, r := range retired {
		out := filepath.ToSlash(filepath.Join(filepath.Base(outAbs), sources.OutputPath(r.src)))
		why := "its source " + r.src + " is gone"
		if !r.gone {
			why = r.src + " no longer needs translating (nothing of CUDA in it or in what it includes)"
		}
		if r.err != nil {
			reason := r.err.Error()
			switch {
			case errors.Is(r.err, builder.ErrEdited):
				reason = "it was changed since hipgen wrote it"
			case errors.Is(r.err, builder.ErrNotGenerated):
				reason = "it lacks hipgen's generated-file marker"
			}
			fmt.Fprintf(e.Stderr, "hipgen: translate: kept %s, although %s: %s\n", out, why, reason)
		} else {
			fmt.Fprintf(e.Stderr, "hipgen: translate: removed %s: %s\n", out, why)
		}
	}
	if err := cmp.Or(printErr, saveErr); err != nil {
		return e.errorf(exitUsage, "translate: %v", err)
	}
	if o.stats {
		known := 0
		for _, j := range tt.setAside {
			if j.skipped {
				known++
			}
		}
		printTranslateStats(e, len(jobs), written, skipped, len(tt.setAside), known, mapped, all)
	}
	if o.check {
		// --check answers one question, whether the outputs are up to
		// date: known error diagnostics are printed but do not fail it.
		// An output recorded for a source that is gone, or that no longer
		// needs translating, is stale too: a run would remove it.
		<-tt.ready
		seen := make(map[string]bool, len(jobs))
		for _, j := range jobs {
			seen[j.rel] = true
		}
		setAside := make(map[string]bool, len(tt.setAside))
		for _, j := range tt.setAside {
			setAside[j.rel] = true
		}
		for _, rel := range slices.Sorted(maps.Keys(tt.state.Files)) {
			if !seen[rel] && !tt.state.Files[rel].setAside() && (setAside[rel] || !fileExists(filepath.Join(root, filepath.FromSlash(rel)))) &&
				fileExists(filepath.Join(outAbs, filepath.FromSlash(sources.OutputPath(rel)))) {
				stale = append(stale, sources.OutputPath(rel))
			}
		}
		for _, s := range stale {
			fmt.Fprintf(e.Stderr, "hipgen: stale: %s\n", filepath.ToSlash(filepath.Join(filepath.Base(outAbs), s)))
		}
		if len(stale) > 0 {
			return exitFailures
		}
		return exitOK
	}
	if hasErrors {
		return exitFailures
	}
	return exitOK
}
