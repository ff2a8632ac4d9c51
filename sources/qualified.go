package sources

import (
	"strings"
	"sync"

	"github.com/hipgen/hipgen/diag"
	"github.com/hipgen/hipgen/sources/hipmap"
	"github.com/hipgen/hipgen/sources/lex"
)

// Qualified names. The tables key namespace members by their full CUDA
// spelling (cooperative_groups::reduce, thrust::system::cuda), but code
// reaches them through longer qualifiers, namespace aliases
// (namespace cg = cooperative_groups;) and using-directives. A chain
// a::b::c is matched longest prefix first, after its first component is
// resolved through the aliases in scope, and a bare name is also tried in
// each namespace a using-directive in scope names.

// nsScope is a namespace alias, or a using-directive (alias ""), in effect
// for the significant tokens [from, to).
type nsScope struct {
	alias, target string
	from, to      int
}

// namespaceDecl records "namespace A = X::Y;" and "using namespace X;"
// starting at the keyword at k, when X is a namespace the tables know.
// It returns the position after the declaration, or k+1.
func (t *translator) namespaceDecl(k int) int {
	var alias string
	j := k + 1
	switch {
	case t.is(k, "namespace") && t.tok(k+1).Kind == lex.Ident && t.is(k+2, "="):
		alias, j = string(t.text(k+1)), k+3
	case t.is(k, "using") && t.is(k+1, "namespace"):
		j = k + 2
	default:
		return k + 1
	}
	if t.is(j, "::") {
		j++
	}
	var parts []string
	for t.tok(j).Kind == lex.Ident {
		parts = append(parts, string(t.text(j)))
		if !t.is(j+1, "::") {
			break
		}
		j += 2
	}
	if len(parts) == 0 || !t.is(j+1, ";") {
		return k + 1
	}
	parts[0] = t.resolveAlias(parts[0], k)
	target := strings.Join(parts, "::")
	if _, ok := t.tbl.Identifier(target, t.ver); !ok || target == alias {
		return k + 1
	}
	t.nsScopes = append(t.nsScopes, nsScope{alias: alias, target: target, from: k, to: t.enclosingBlockEnd(k)})
	// The target itself is translated by the ordinary rules.
	return k + 1
}

// enclosingBlockEnd returns the position of the brace closing the block
// around k, or the end of the file at namespace scope of the file (or
// when that block is never closed).
func (t *translator) enclosingBlockEnd(k int) int {
	if c := t.matching(t.openAround(k)); c >= 0 {
		return c
	}
	return len(t.toks)
}

// openAround returns the position of the innermost "{" around the k-th
// significant token (for a "{", the one around it; for a "}", the one
// around the block it closes), or -1 at file scope. Calling it again on
// the result walks outwards. The innermost brace around k is the last one
// before k or one of those around that one: the first of them that is
// not closed before k.
func (t *translator) openAround(k int) int {
	if k < 0 || k >= len(t.toks) {
		return -1
	}
	b := t.braceOf(int32(k)) // the last brace at or before k
	if b >= 0 && int(t.br.Braces[b]) == k {
		b = t.br.BraceUp[b]
	}
	for b >= 0 {
		o := t.br.Braces[b]
		if c := t.br.Close[o]; c < 0 || int(c) > k {
			return int(o)
		}
		b = t.br.BraceUp[b]
	}
	return -1
}

// braceOf returns the index in braces of the last "{" at or before the
// k-th significant token, or -1.
func (t *translator) braceOf(k int32) int32 {
	lo, hi := 0, len(t.br.Braces)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if t.br.Braces[m] <= k {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return int32(lo - 1)
}

// resolveAlias returns the namespace an alias in scope at k stands for,
// or name itself.
func (t *translator) resolveAlias(name string, k int) string {
	for i := len(t.nsScopes) - 1; i >= 0; i-- {
		s := t.nsScopes[i]
		if s.alias == name && s.from <= k && k < s.to {
			return s.target
		}
	}
	return name
}

// chainStart reports whether the identifier at k begins a qualified name
// (a leading "::" is allowed) rather than continuing one.
func (t *translator) chainStart(k int) bool {
	if !t.is(k-1, "::") {
		return true
	}
	prev := t.tok(k - 2)
	return !(prev.Kind == lex.Ident && !cppKeywords()[string(t.text(k-2))] || t.is(k-2, ">"))
}

// qualifiedName handles a chain a::b[::c...] starting at the identifier k.
// handled is false when no prefix of the chain is known.
func (t *translator) qualifiedName(k int) (next int, handled bool) {
	parts := []int{k}
	for j := k; t.is(j+1, "::") && t.tok(j+2).Kind == lex.Ident; j += 2 {
		parts = append(parts, j+2)
	}
	first := string(t.text(k))
	canon := t.resolveAlias(first, k)
	aliased := canon != first
	names := make([]string, len(parts))
	names[0] = canon
	for i := 1; i < len(parts); i++ {
		names[i] = names[i-1] + "::" + string(t.text(parts[i]))
	}
	for n := len(parts); n >= 2; n-- {
		last := parts[n-1]
		if t.qualifiedPolyfill(k, last, names[n-1]) {
			return last + 1, true
		}
		e, ok := t.tbl.Identifier(names[n-1], t.ver)
		if !ok {
			continue
		}
		switch {
		case !e.Available(t.ver):
			t.unavailable(k, e)
		case !aliased && e.Renames():
			// Through an alias the alias's own target is renamed where
			// it is declared, so only the full spelling is rewritten.
			t.edits = append(t.edits, edit{int(t.tok(k).Start), int(t.tok(last).End), e.HIP})
			t.count(e)
			t.cubWarpWidth(last, e)
		default:
			// Kept as it is: the components' own rules (a hazard, a
			// deprecation) still apply.
			t.noteDeprecated(k, e)
			return k + 1, true
		}
		t.noteDeprecated(k, e)
		return last + 1, true
	}
	return k + 1, aliased
}

// usingDirectiveName handles a bare identifier at k that a using-directive
// in scope brings in from a namespace the tables know: a call or a
// template of a name the target ROCm lacks is reported or polyfilled.
func (t *translator) usingDirectiveName(k int, b []byte) bool {
	if !t.is(k+1, "(") && !t.is(k+1, "<") || t.is(k-1, ".") || t.is(k-1, "->") || t.is(k-1, "::") {
		return false
	}
	if !t.filters.tails.mayContain(b) {
		return false // no namespace the tables know has a member of that name
	}
	if t.definesFunction(string(b)) {
		return false // the project's own function of that name
	}
	for i := len(t.nsScopes) - 1; i >= 0; i-- {
		s := t.nsScopes[i]
		if s.alias != "" || k < s.from || k >= s.to {
			continue
		}
		q := s.target + "::" + string(b)
		if t.qualifiedPolyfill(k, k, q) {
			return true
		}
		if e, ok := t.tbl.Identifier(q, t.ver); ok && !e.Available(t.ver) {
			t.unavailable(k, e)
			return true
		}
	}
	return false
}

// qualifiedPolyfill replaces the name spelled from first to last, whose
// full CUDA name is q, by its polyfill when the target ROCm lacks q.
func (t *translator) qualifiedPolyfill(first, last int, q string) bool {
	p, ok := t.names.polyfills[q]
	if !ok {
		return false
	}
	if e, ok := t.tbl.Identifier(q, t.ver); ok && e.Available(t.ver) {
		return false
	}
	t.edits = append(t.edits, edit{int(t.tok(first).Start), int(t.tok(last).End), p.name})
	t.addPolyfill(q, int(t.tok(first).Start))
	t.report(first, diag.Note, "polyfill", q+" became "+p.name+": "+p.why+oncePerFile)
	if q == "cooperative_groups::binary_partition" && t.is(first-1, "=") && t.tok(first-2).Kind == lex.Ident && !t.is(first-3, "auto") && t.tok(first-3).Kind == lex.Ident {
		// "cg::coalesced_group odd = cg::binary_partition(...)": HIP's
		// group types cannot be built from the polyfill's.
		t.report(first-3, diag.Error, "unsupported-api", "the group binary_partition returns is stored as "+string(t.text(first-3))+
			", but before ROCm 6.3 it is hipgen_cg_lanes (see the polyfill note), which converts to no cooperative-groups type: declare "+string(t.text(first-2))+" auto")
	}
	return true
}

// addPolyfill records that the file needs the definition of q.
func (t *translator) addPolyfill(q string, off int) {
	t.needRuntime = true
	if !t.names.polyfills[q].hasDefinition() {
		return
	}
	t.notePolyfill(q, off)
}

// notePolyfill records that the file needs the polyfill of key, and of
// the keys it depends on, first used at offset off.
func (t *translator) notePolyfill(key string, off int) {
	if t.polyfills == nil {
		t.polyfills = map[string]int{}
	}
	if _, seen := t.polyfills[key]; seen {
		return
	}
	t.polyfills[key] = off
	for _, d := range t.names.polyfills[key].deps {
		t.notePolyfill(d, off)
	}
}

// cubWarpWidths gives, for CUB's warp collectives, the index of the
// template parameter that sets the logical warp's width. CUB defaults it
// to 32 lanes, hipCUB to the hardware wavefront: 64 on CDNA, where two
// of CUB's warps would then be reduced, scanned or exchanged as one.
var cubWarpWidths = sync.OnceValue(func() map[string]int {
	return map[string]int{
		"cub::WarpReduce": 1, "cub::WarpScan": 1,
		"cub::WarpExchange": 2, "cub::WarpMergeSort": 2,
		"cub::WarpLoad": 3, "cub::WarpStore": 3,
	}
})

// warpTransposes are CUB's block load and store algorithms that go through
// warp-wide transposes.
var warpTransposes = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"cub::BLOCK_LOAD_WARP_TRANSPOSE": true, "cub::BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED": true,
		"cub::BLOCK_STORE_WARP_TRANSPOSE": true, "cub::BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED": true,
	}
})

// cubWarpWidth keeps a CUB warp collective whose name ends at last on
// 32-lane logical warps when its template arguments leave the width to
// the default: WarpReduce<T> and WarpScan<T> become WarpReduce<T, 32>;
// the others, whose width follows defaulted parameters, are reported.
// With --wave=wide the wavefront's width is what the code gets. The warp
// transposes of block loads and stores, which need whole wavefronts, are
// reported once per file.
func (t *translator) cubWarpWidth(last int, e hipmap.Entry) {
	if t.inNative() {
		return // the project's HIP code (see hipBranch)
	}
	if warpTransposes()[e.CUDA] {
		t.report(last, diag.Warning, checkWaveHazard, e.HIP+" needs blocks whose size is a multiple of the wavefront (64 threads on CDNA; rocPRIM asserts it at compile time), where "+e.CUDA+" needs a multiple of 32: a block of 32 threads does not compile for gfx9 GPUs; choose a direct algorithm for such blocks"+oncePerFile)
		return
	}
	pos, ok := cubWarpWidths()[e.CUDA]
	if !ok || t.wave.wide || !t.is(last+1, "<") {
		return
	}
	at, args := t.templateArgs(last + 1)
	if at < 0 || args > pos {
		return
	}
	if pos == 1 && args == 1 {
		t.insert(at, ", 32")
		t.logicalWarp(last, e.HIP+" is given 32 lanes: hipCUB's default width is the wavefront (64 on CDNA), CUB's is 32")
		return
	}
	t.report(last, diag.Warning, checkWaveHazard, e.HIP+" without a width spans the wavefront (64 lanes on CDNA), where "+e.CUDA+" spans 32: give its LOGICAL_WARP_THREADS argument as 32")
}

// templateArgs finds where the template argument list opened by the '<'
// at open closes (the byte offset of its '>', which may be the first or
// second of a '>>') and counts the arguments at its top level; at is -1
// when the list does not close before a ';', '{' or '}'.
func (t *translator) templateArgs(open int) (at, args int) {
	depth, paren := 0, 0
	for j := open; j < len(t.toks); j++ {
		switch string(t.text(j)) {
		case "(", "[":
			paren++
		case ")", "]":
			paren--
		case "<":
			if paren == 0 {
				depth++
			}
		case ">", ">>":
			if paren != 0 {
				continue
			}
			for c := int(t.tok(j).Start); c < int(t.tok(j).End); c++ {
				if depth--; depth == 0 {
					return c, args + 1
				}
			}
		case ",":
			if depth == 1 && paren == 0 {
				args++
			}
		case ";", "{", "}":
			return -1, 0
		}
	}
	return -1, 0
}
