package sources

import (
	"strconv"
	"sync"

	"github.com/hipgen/hipgen/diag"
	"github.com/hipgen/hipgen/sources/lex"
)

// HeaderMacros answers what the project headers a file reaches through
// its #include lines define of the macros its translation asks about
// (Stats.MacrosAsked): ggml's mma.cuh tests TURING_MMA_AVAILABLE, which
// its common.cuh defines only under "#if !defined(GGML_USE_HIP) &&
// __CUDA_ARCH__ >= 750", so the inline PTX under that test is never
// compiled for AMD GPUs. Each header is read and looked at once, whatever
// the number of files that include it; a header's own definitions are
// judged by its own #if tests (a macro it defines under a test of what
// another header defines is not followed further). Includes resolve as
// IncludeClosure resolves them. It is safe for concurrent use.
type HeaderMacros struct {
	read        func(path string) ([]byte, error)
	includeDirs []string
	opts        Options
	headers     sync.Map // path -> *headerFacts
}

// headerFacts is what one header defines, and what it includes.
type headerFacts struct {
	once     sync.Once
	found    bool // read: the path names a project file
	macros   map[string]MacroDef
	includes []Include
}

// NewHeaderMacros returns a HeaderMacros reading project files with read
// (slash paths relative to the project root), looking in includeDirs as
// IncludeClosure does, for translations with opts (the ROCm version
// decides which #if tests hipcc never compiles).
func NewHeaderMacros(read func(path string) ([]byte, error), includeDirs []string, opts Options) *HeaderMacros {
	opts.IncludedMacros, opts.LocalIncludes, opts.IncludesResolved = nil, nil, false
	return &HeaderMacros{read: read, includeDirs: includeDirs, opts: opts}
}

// Lookup returns what the project headers reached from includes (the
// #include lines of the file at slash path file) define of names:
// Live when one defines it outside every block hipcc never compiles, else
// where the first, in include order, defines it. Names they do not define
// are left out.
func (h *HeaderMacros) Lookup(file string, includes []Include, names []string) map[string]MacroDef {
	out := map[string]MacroDef{}
	seen := map[string]bool{file: true}
	var visit func(from string, includes []Include)
	visit = func(from string, includes []Include) {
		for _, inc := range includes {
			for _, c := range IncludeCandidates(from, inc, h.includeDirs) {
				f := h.header(c)
				if !f.found {
					continue
				}
				if !seen[c] {
					seen[c] = true
					for _, n := range names {
						if d, ok := f.macros[n]; ok && !out[n].Live {
							if _, have := out[n]; !have || d.Live {
								out[n] = d
							}
						}
					}
					visit(c, f.includes)
				}
				break
			}
		}
	}
	visit(file, includes)
	if len(out) == 0 {
		return nil
	}
	return out
}

// Read reads and looks at the project headers reached from includes (the
// #include lines of the file at slash path file) that no earlier call
// read, so that a Lookup from another goroutine later finds them ready:
// Unit.OnAsk tells when that is worth doing.
func (h *HeaderMacros) Read(file string, includes []Include) {
	h.Lookup(file, includes, nil)
}

// header returns the facts of the header at p, found on first need.
func (h *HeaderMacros) header(p string) *headerFacts {
	v, ok := h.headers.Load(p)
	if !ok {
		v, _ = h.headers.LoadOrStore(p, new(headerFacts))
	}
	f := v.(*headerFacts)
	f.once.Do(func() {
		src, err := h.read(p)
		if err != nil {
			return
		}
		f.found = true
		f.macros, f.includes = definedMacros(p, src, h.opts)
	})
	return f
}

// definedMacros returns what the file at slash path name defines, as
// MacroDef values (Where naming name), and its #include lines.
func definedMacros(name string, src []byte, opts Options) (map[string]MacroDef, []Include) {
	u := Parse(name, src)
	t := newTranslator(name, src, u.code, opts)
	u.code = lex.Code{}
	defer t.release()
	var out map[string]MacroDef
	if len(t.definesAt()) > 0 {
		out = map[string]MacroDef{}
		for n, d := range t.fileMacros() {
			if d.live {
				out[n] = MacroDef{Live: true}
			} else {
				out[n] = MacroDef{Where: name + ", line " + strconv.Itoa(t.lineOf(int(d.dead)))}
			}
		}
	}
	return out, u.includes
}

// TranslateIn is TranslateStats for a file of the project h reads: when
// the translation asks about macros that the headers it includes define
// only in blocks hipcc never compiles, the file is translated again with
// what they say. It returns the options of the translation kept.
func (h *HeaderMacros) TranslateIn(name string, src []byte, opts Options) ([]byte, []diag.Diagnostic, Stats, Options) {
	u := Parse(name, src)
	var reading sync.WaitGroup
	u.OnAsk(func() {
		reading.Go(func() { h.Read(name, u.Includes()) })
	})
	out, diags, st := u.Translate(opts)
	diags, st, opts = h.Settle(u, diags, st, opts)
	reading.Wait() // nothing goes on after the call
	return out, diags, st, opts
}

// Settle takes the diagnostics and counts of u's translation with opts
// and, when that translation asked about macros (Stats.MacrosAsked) that
// the headers u includes define only in blocks hipcc never compiles,
// returns those of u walked again with what the headers say instead, and
// the options of that walk (Options.IncludedMacros set); the output stays
// the same. The counts keep the questions asked.
func (h *HeaderMacros) Settle(u *Unit, diags []diag.Diagnostic, st Stats, opts Options) ([]diag.Diagnostic, Stats, Options) {
	facts := h.Ask(u.name, u.Includes(), st.MacrosAsked)
	if facts == nil {
		u.dropAsked()
		return diags, st, opts
	}
	opts.IncludedMacros = facts
	asked := st.MacrosAsked
	diags, st = u.Reconsider(opts)
	st.MacrosAsked = asked
	return diags, st, opts
}

// Ask is Lookup for the macros a translation asked about, returning nil
// unless a header defines one of them only in blocks hipcc never
// compiles: a translation with what it returns differs from one without.
func (h *HeaderMacros) Ask(file string, includes []Include, asked []string) map[string]MacroDef {
	if len(asked) == 0 || len(includes) == 0 {
		return nil
	}
	facts := h.Lookup(file, includes, asked)
	for _, d := range facts {
		if !d.Live {
			return facts
		}
	}
	return nil
}
