package sources

import (
	"runtime"
	"slices"

	"github.com/hipgen/hipgen/internal/assist"
	"github.com/hipgen/hipgen/sources/lex"
)

// Walking one large file on several cores.
//
// The walk (run) is sequential: what it does at a token may depend on what
// it saw earlier, through a small carried state: the #if nesting (conds,
// deadOnHIP), the namespace aliases and using-directives in scope
// (nsScopes), the diagnostics given once per file, whether a hip_runtime.h
// include came already, and in wide mode the variables widened to hold
// ballots. Everything else the walk keeps only accumulates (edits,
// diagnostics, counts, polyfills wanted) or is a fact of the whole file.
//
// runSplit cuts a large file into parts at line starts between
// statements, and walks each part after the first on its own goroutine,
// with a copy of the translator started from a predicted carried state: the
// one a replay of only the #if directives and namespace declarations before
// the cut gives. The parts are then joined in order. A part is taken over
// (its edits and diagnostics appended, its state merged) only when the walk
// before it stopped exactly at its cut with the carried state it assumed;
// any other part is walked again, sequentially, from where the walk
// stopped. So the result is the sequential walk's, byte for byte, whatever
// the predictions; they only decide how much runs in parallel.

// splitMin is the least number of source bytes per part of a first walk,
// and rewalkSplitMin of a second one (Unit.Reconsider): that comes at the
// end of its file's work, often the last work of a run, when cores that
// have nothing else to do can take smaller parts.
const (
	splitMin       = 32 << 10
	rewalkSplitMin = 8 << 10
)

// splitParts returns how many parts to walk a file of n bytes in, each of
// at least least bytes.
func splitParts(n, least int) int {
	return min(runtime.GOMAXPROCS(0), n/least, 8)
}

// part is one part of a split walk after the first.
type part struct {
	from, to int         // it walks the tokens [from, to)
	t        *translator // started from the predicted carried state:
	conds    []condFrame // this #if nesting,
	dead     bool        // deadOnHIP,
	scopes   []nsScope   // and these namespace scopes
	stop     int         // where its walk stopped
	done     chan struct{}
}

// runSplit is run walking the tokens in up to n parts in parallel. It
// returns how many parts it cut and how many of them it took over.
func (t *translator) runSplit(n int) (cut, taken int) {
	t.start()
	parts := t.plan(n)
	var g assist.Group // a part goes to a free worker, if one asks first
	for i := range parts {
		p := &parts[i]
		g.Go(func() {
			p.stop = p.t.runRange(p.from, p.to)
			close(p.done)
		})
	}
	end := len(t.toks)
	if len(parts) > 0 {
		end = parts[0].from
	}
	k := t.runRange(0, end)
	for i := range parts {
		p := &parts[i]
		if k == p.from && t.sameCarried(p) {
			<-p.done
			if t.compatible(p.t) {
				t.absorb(p)
				k = p.stop
				taken++
				continue
			}
		}
		k = t.runRange(k, p.to)
	}
	g.Wait() // the parts read the token buffers, recycled after the walk
	return len(parts), taken
}

// plan chooses where parts start, at most n-1 cuts spread evenly over the
// tokens (see cuts), and forks a translator for each, with the carried
// state a replay of the #if directives and namespace declarations before
// the cut gives.
func (t *translator) plan(n int) []part {
	cuts := t.cuts(n)
	if len(cuts) == 0 {
		return nil
	}
	s := t.fork() // the replay's edits and diagnostics are dropped
	parts := make([]part, len(cuts))
	e := 0
	for i, cut := range cuts {
		for ; e < len(t.scopes) && int(t.scopes[e]) < cut; e++ {
			// What directive and ident would do to the carried state.
			if k := int(t.scopes[e]); t.toks[k].Kind == lex.Punct {
				s.conditional(k, string(s.text(k+1)))
			} else {
				s.namespaceDecl(k)
			}
		}
		to := len(t.toks)
		if i+1 < len(cuts) {
			to = cuts[i+1]
		}
		parts[i] = part{from: cut, to: to, t: s.fork(), conds: slices.Clone(s.conds), dead: s.deadOnHIP, scopes: slices.Clone(s.nsScopes), done: make(chan struct{})}
	}
	return parts
}

// cuts returns up to n-1 positions, in order, where parts of a walk in n
// parts start: the first token at or after each n-th of the tokens that
// starts both a line and a statement or declaration.
func (t *translator) cuts(n int) []int {
	step := len(t.toks) / n
	var cuts []int
	k := 0
	for i := 1; i < n; i++ {
		k = max(k+1, i*step)
		for k < len(t.toks) && !(t.toks[k].LineStart && !t.toks[k].Directive && t.startsStatement(k)) {
			k++
		}
		if k == len(t.toks) {
			break
		}
		cuts = append(cuts, k)
	}
	return cuts
}

// fork returns a translator for another part of t's file: it shares what
// is read only (source, tokens, tables, facts found so far) and starts
// with t's carried state and nothing accumulated.
func (t *translator) fork() *translator {
	c := *t
	c.edits = make([]edit, 0, 64)
	c.diags = nil
	c.mapped = nil
	c.asked = nil
	c.runtimeIncludes = nil
	c.firstHIPHeader = -1
	c.mathUse, c.mathIncluded = -1, false
	c.needRuntime, c.needHelpers, c.sharedLogical = false, false, false
	c.polyfills = nil
	c.includeEnds = nil
	c.deviceDecls = nil
	c.fp8Noted, c.cutlassNoted, c.coalescedNoted = false, false, false
	c.conds = slices.Clone(t.conds)
	c.nsScopes = slices.Clone(t.nsScopes)
	c.wave.narrow = map[string]bool{}
	c.wave.missed = nil
	c.wave.track = true
	return &c
}

// sameCarried reports whether the walk, at p's cut, carries the state p's
// translator started from: the same #if nesting and the same namespace
// scopes still in effect.
func (t *translator) sameCarried(p *part) bool {
	return t.deadOnHIP == p.dead && slices.Equal(t.conds, p.conds) &&
		slices.Equal(scopesAt(t.nsScopes, p.from), scopesAt(p.scopes, p.from))
}

// scopesAt returns the scopes of list in effect at k and later.
func scopesAt(list []nsScope, k int) []nsScope {
	var out []nsScope
	for _, s := range list {
		if s.to > k {
			out = append(out, s)
		}
	}
	return out
}

// compatible reports whether the part walked by q read nothing of the
// state the walk before it changed: a diagnostic given once per file that
// both gave, a hip_runtime.h include both saw (q kept its first), a
// variable q took as not widened that the walk widened.
func (t *translator) compatible(q *translator) bool {
	if t.fp8Noted && q.fp8Noted || t.cutlassNoted && q.cutlassNoted || t.coalescedNoted && q.coalescedNoted {
		return false
	}
	if len(t.runtimeIncludes) > 0 && len(q.runtimeIncludes) > 0 {
		return false
	}
	for _, name := range q.wave.missed {
		if t.wave.narrow[name] {
			return false
		}
	}
	return true
}

// absorb takes over what p's translator found walking the part after t's
// walk, as if t had walked it.
func (t *translator) absorb(p *part) {
	q := p.t
	t.edits = append(t.edits, q.edits...)
	t.diags = append(t.diags, q.diags...)
	t.asked = append(t.asked, q.asked...)
	for family, n := range q.mapped {
		if t.mapped == nil {
			t.mapped = map[string]int{}
		}
		t.mapped[family] += n
	}
	t.runtimeIncludes = append(t.runtimeIncludes, q.runtimeIncludes...)
	if t.firstHIPHeader < 0 {
		t.firstHIPHeader = q.firstHIPHeader
	}
	if t.mathUse < 0 {
		t.mathUse = q.mathUse
	}
	t.mathIncluded = t.mathIncluded || q.mathIncluded
	t.needRuntime = t.needRuntime || q.needRuntime
	t.needHelpers = t.needHelpers || q.needHelpers
	for name, off := range q.polyfills {
		if t.polyfills == nil {
			t.polyfills = map[string]int{}
		}
		if _, seen := t.polyfills[name]; !seen {
			t.polyfills[name] = off
		}
	}
	t.includeEnds = append(t.includeEnds, q.includeEnds...)
	t.deviceDecls = append(t.deviceDecls, q.deviceDecls...)
	t.fp8Noted = t.fp8Noted || q.fp8Noted
	t.cutlassNoted = t.cutlassNoted || q.cutlassNoted
	t.coalescedNoted = t.coalescedNoted || q.coalescedNoted
	t.sharedLogical = t.sharedLogical || q.sharedLogical
	t.conds = append(t.conds[:0], q.conds...)
	t.deadOnHIP = q.deadOnHIP
	t.nsScopes = append(t.nsScopes, q.nsScopes[len(p.scopes):]...)
	for name := range q.wave.narrow {
		t.wave.narrow[name] = true
	}
}
