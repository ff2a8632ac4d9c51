package sources

import (
	"bytes"
	"strings"

	"github.com/hipgen/hipgen/diag"
	"github.com/hipgen/hipgen/sources/lex"
)

// launch handles k<<<grid, block[, shmem[, stream]]>>>(args) whose <<< is
// at k. With LaunchGGL it becomes hipLaunchKernelGGL(k, grid, block,
// shmem, stream, args); template kernels are parenthesised so their
// commas do not split macro arguments.
func (t *translator) launch(k int) int {
	t.needRuntime = true
	if t.inDeviceFunction(k) {
		t.report(k, diag.Error, "unsupported-api", "kernel launch in device code (CUDA dynamic parallelism): HIP has no device-side launches; launch from the host")
	}
	if t.opts.Launch != LaunchGGL {
		// Brackets written with blanks inside ("<< <", ">> >"), which
		// nvcc takes and hipcc does not, are closed up.
		spaced := !t.is(k, "<<<")
		closeCfg := t.launchClose(k)
		switch {
		case closeCfg >= 0:
			if spaced {
				t.replace(k, "<<<")
			}
			if !t.is(closeCfg, ">>>") {
				t.replace(closeCfg, ">>>")
			}
		case spaced:
			t.report(k, diag.Warning, "launch", "kernel launch brackets not closed up: cannot find the closing >>>")
		}
		return k + 1
	}
	// Launches are rewritten one statement at a time, and only where the
	// statement holds one launch: a launch nested in another's name,
	// parameters or arguments (as odd as that is), or two launches in one
	// expression, would otherwise have the rewrite of one change what the
	// next run makes of the other. Statements are delimited by tokens no
	// rewrite adds or removes, so the decision is the same on every run.
	if t.launchesInStatement(k) > 1 {
		t.report(k, diag.Warning, "launch", "kernel launch not rewritten: another launch in the same statement; with --launch=ggl each launch needs a statement of its own")
		return k + 1
	}
	closeCfg := t.launchClose(k)
	if closeCfg < 0 || !t.is(closeCfg+1, "(") {
		t.report(k, diag.Warning, "launch", "kernel launch not rewritten: cannot find the closing >>> and the argument list")
		return k + 1
	}
	closeArgs := t.matching(closeCfg + 1)
	kstart := t.kernelStart(k - 1)
	if kstart >= 0 && bytes.Contains(t.src[t.tok(kstart).End:t.tok(k).Start], []byte(removedIncludeMark)) {
		// An #include within the kernel name or between it and <<<
		// ("A\n#include <x>\n<T><<<"), which stops kernelStart, that a
		// run before removed: the same answer as then.
		kstart = -1
	}
	if closeArgs < 0 || kstart < 0 {
		t.report(k, diag.Warning, "launch", "kernel launch not rewritten: cannot delimit the kernel name or its arguments")
		return k + 1
	}
	// The name and the tokens the rewrite moves or replaces (<<<, >>>,
	// the parentheses of the arguments) stand on lines of one kind, a
	// preprocessor line or not: the rewrite would otherwise move code
	// into a directive or out of it. Whole directive lines between them
	// (#ifdef ... #endif among the arguments) stay as they are. The
	// arguments' ) is on the line kind of their (, which the bracket
	// pairing guarantees.
	same := t.tok(closeCfg).Directive == t.tok(k).Directive && t.tok(closeCfg+1).Directive == t.tok(k).Directive
	for i := kstart; i < k && same; i++ {
		same = t.tok(i).Directive == t.tok(k).Directive
	}
	if !same {
		t.report(k, diag.Warning, "launch", "kernel launch not rewritten: part of it is on a preprocessor line")
		return k + 1
	}
	if !t.literalFree(k+1, closeCfg) {
		t.report(k, diag.Warning, "launch", "kernel launch not rewritten: a literal among the launch parameters")
		return k + 1
	}
	if _, ok := t.args(k, closeCfg); !ok {
		t.report(k, diag.Warning, "launch", "kernel launch not rewritten: malformed launch parameters")
		return k + 1
	}
	cfg, _ := t.args(k, closeCfg)
	if len(cfg) < 2 || len(cfg) > 4 {
		t.report(k, diag.Warning, "launch", "kernel launch not rewritten: want 2 to 4 launch parameters")
		return k + 1
	}
	// Every token stays where it is, so the kernel name, the launch
	// parameters and the arguments are translated like any other code;
	// only the brackets change:
	//   kernel<<<g, b>>>(args)  ->  hipLaunchKernelGGL(kernel, g, b, 0, 0, args)
	open := "hipLaunchKernelGGL("
	kernelEnd := int(t.tok(k - 1).End)
	if t.is(k-1, ">") || t.is(k-1, ">>") {
		open += "(" // template arguments hold commas: keep them out of the macro's arguments
		t.insert(kernelEnd, ")")
	}
	t.insert(int(t.tok(kstart).Start), open)
	comma := ", "
	if end := int(t.tok(k).End); end < len(t.src) && (t.src[end] == ' ' || t.src[end] == '\t' || t.src[end] == '\n' || t.src[end] == '\r') {
		comma = ","
	}
	t.edits = append(t.edits, edit{int(t.tok(k).Start), int(t.tok(k).End), comma})
	tail := strings.Repeat(", 0", 4-len(cfg))
	if closeArgs > closeCfg+2 {
		tail += ", "
	}
	t.edits = append(t.edits, edit{int(t.tok(closeCfg).Start), int(t.tok(closeCfg + 1).End), tail})
	return k + 1
}

// launchClose returns the index of the >>> (or ">> >") that closes the
// launch configuration opened at k, or -1. Brackets inside must pair up
// by kind: in "A<<<{)B<<<0,0>>>(),0>>>()" the first launch has none, so
// that rewriting the second (with --launch=ggl) cannot give it one on the
// next run. A launch on a preprocessor line closes on that line, as its
// brackets pair (in "#A<<<" and "#A<<<0,0>>>(),0>>>()" on the next line
// the first has none either).
func (t *translator) launchClose(k int) int {
	var buf [16]byte
	open := buf[:0] // the closers the open brackets want, innermost last
	dir := t.tok(k).Directive
	for j := k + 1; j < len(t.toks); j++ {
		if dir && (!t.tok(j).Directive || t.tok(j).LineStart && t.isByte(j, '#')) {
			return -1 // a launch on a preprocessor line closes on it
		}
		switch t.launchBracket(j) {
		case '>':
			if len(open) == 0 {
				return j
			}
		case '<':
			if len(open) == 0 {
				return -1
			}
		}
		switch string(t.text(j)) {
		case "(":
			open = append(open, ')')
		case "[":
			open = append(open, ']')
		case "{":
			open = append(open, '}')
		case ")", "]", "}":
			if len(open) == 0 || open[len(open)-1] != t.src[t.tok(j).Start] {
				return -1
			}
			open = open[:len(open)-1]
		case ";":
			if len(open) == 0 {
				return -1
			}
		}
	}
	return -1
}

// kernelStart walks back from k over a possibly qualified, possibly
// templated kernel name (ns::kern<T, 4>) and returns its first token.
func (t *translator) kernelStart(k int) int {
	j := k
	if t.is(j, ">") || t.is(j, ">>") {
		depth := 0
		for ; j >= 0; j-- {
			switch string(t.text(j)) {
			case ">":
				depth++
			case ">>":
				depth += 2
			case "<":
				depth--
			case ";", "{", "}":
				return -1
			}
			if depth == 0 {
				break
			}
		}
		j--
	}
	if t.tok(j).Kind != lex.Ident {
		return -1
	}
	for t.is(j-1, "::") && t.tok(j-2).Kind == lex.Ident {
		j -= 2
	}
	if t.is(j-1, "::") {
		j--
	}
	if t.is(j-1, ".") || t.is(j-1, "->") {
		// A member ("obj.kernel<<<...>>>", which CUDA rejects): the
		// rewrite would leave the member access on hipLaunchKernelGGL
		// and make the name an argument, which a later run reads as
		// no member.
		return -1
	}
	return j
}

// launchesInStatement counts the <<< (or "<< <") tokens of the statement
// holding the one at k: the tokens between the nearest ;, { or } on either
// side (at any bracket depth), within one preprocessor line or outside any.
func (t *translator) launchesInStatement(k int) int {
	bound := func(j int) bool {
		return t.isByte(j, ';') || t.isByte(j, '{') || t.isByte(j, '}') ||
			t.tok(j).Directive != t.tok(k).Directive || t.tok(j).LineStart && t.isByte(j, '#')
	}
	n := 0
	for j := k; j >= 0 && (j == k || !bound(j)); j-- {
		if t.launchBracket(j) == '<' {
			n++
		}
	}
	for j := k + 1; j < len(t.toks) && !bound(j); j++ {
		if t.launchBracket(j) == '<' {
			n++
		}
	}
	return n
}

// inDeviceFunction reports whether the k-th token is in the body of a
// function declared __global__ or __device__ (see functionSpace).
func (t *translator) inDeviceFunction(k int) bool {
	device, _ := t.functionSpace(k)
	return device
}

// functionSpace reports whether the k-th token is in the body of a
// function declared __global__ or __device__ (device), and whether that
// declaration says __host__ too (host) (see functionBody).
func (t *translator) functionSpace(k int) (device, host bool) {
	body := t.functionBody(k)
	if body < 0 {
		return false, false
	}
	return t.declaredSpace(body)
}

// deviceOnly reports whether the k-th token is in the body of a function
// declared __global__ or __device__ and not __host__.
func (t *translator) deviceOnly(k int) bool {
	device, host := t.functionSpace(k)
	return device && !host
}

// hostCompiles reports whether the k-th token is in the body of a function
// that the host pass compiles: one declared neither __global__ nor
// __device__, or __host__ as well.
func (t *translator) hostCompiles(k int) bool {
	body := t.functionBody(k)
	if body < 0 {
		return false
	}
	device, host := t.declaredSpace(body)
	return !device || host
}

// functionBody returns the '{' of the function body around the k-th token,
// or -1: the outermost enclosing block that follows a parameter list
// (lex.Brackets.BraceAfter; not the list of an if, for, while, switch or
// catch, nor one with nothing before it outside a directive).
func (t *translator) functionBody(k int) int {
	o := t.openAround(k)
	if o < 0 {
		return -1
	}
	body := -1
	for b := t.braceOf(int32(o)); b >= 0; b = t.br.BraceUp[b] {
		if open := int(t.br.BraceAfter[b]); open > 0 && !t.tok(open-1).Directive && !controlWords()[string(t.text(open-1))] && !t.is(open-1, "catch") {
			body = int(t.br.Braces[b])
		}
	}
	return body
}

// declaredSpace reports whether the declaration before the function body
// at body (see declarationStart) says __global__ or __device__ (device),
// and __host__ (host).
func (t *translator) declaredSpace(body int) (device, host bool) {
	for j := t.declarationStart(body, 256); j < body; j++ {
		switch {
		case t.is(j, "__global__") || t.is(j, "__device__"):
			device = true
		case t.is(j, "__host__"):
			host = true
		}
	}
	return device, host
}

// declarationStart returns the position of the first token of the
// declaration that the k-th token belongs to: the one after the previous
// ';', '{', '}' or directive, looking back over at most limit-1 tokens.
func (t *translator) declarationStart(k, limit int) int {
	j := k - 1
	for ; j >= 0 && j > k-limit; j-- {
		if t.isByte(j, ';') || t.isByte(j, '{') || t.isByte(j, '}') || t.tok(j).Directive {
			break
		}
	}
	return j + 1
}
