package sources

import (
	"strconv"
	"strings"

	"github.com/hipgen/hipgen/diag"
	"github.com/hipgen/hipgen/sources/lex"
)

// Inline PTX that HIP computes without assembly.
//
// Kernels use inline PTX for a few dozen instructions that have plain C++
// equivalents: loads and stores with cache operators or vector widths
// (faiss, DeepSpeed, HeCBench), bit-field extract and insert, byte
// permutes and three-input logic (faiss, CUTLASS-style code), wide and
// high multiplies, the approximate math unit (flash attention's ex2 and
// tanh), conversions, atomics and reductions, fences, barriers, traps, the
// clock, shuffles, Ampere's asynchronous copies, and guarded loads and
// stores (a .reg .pred set by setp). ptxInstructions rewrites an asm
// statement whose every instruction is one of those into
// hipgen_ptx_value(lvalue, value, asm(...)) (one output) or
// hipgen_ptx_code(code, asm(...)): the macros drop their last argument,
// the asm kept as written for the reader (and for the rule that strings
// are never rewritten), and compute what PTX does, to the bit where PTX
// defines it (bfe, bfi, prmt and lop3 follow the PTX ISA's definitions,
// and the GPU's where it differs, checked on H100 and H200 by
// conformance/testdata/ptx_instructions.cu). The template's registers
// stand for the expressions written to them. Anything else (an instruction
// not in the list, a qualifier that changes the result, a register
// written under a predicate) leaves the statement to the inline-asm error.

// ptxCode names the macro that stands for an asm statement whose effect
// HIP computes without assembly, when it is not one value for one output:
// hipgen_ptx_code(code, asm(...)) is code.
const ptxCode = "hipgen_ptx_code"

// ptxPrefixMax is the most bytes ptxInstructions writes before an asm
// statement; wrappedPTX looks that many tokens back.
const ptxPrefixMax = 1500

// ptxCodeKey is hipgen_ptx_code's key among the polyfills.
const ptxCodeKey = "asm:" + ptxCode

// asmOperand is one operand of an extended asm statement: its constraint
// without modifiers ('r', 'l', 'h', 'f', 'd' or 'n'), whether it is an
// output ("=") or both ("+"), and its expression's tokens.
type asmOperand struct {
	class       byte
	out, inout  bool
	first, last int
	uses        int // how often the rewrite names it
}

// ptxAsm is an asm statement taken apart for ptxInstructions.
type ptxAsm struct {
	t    *translator
	ops  []asmOperand
	keys []string // the helpers the rewrite calls
	what []string // what each instruction became, for the note
	// assigned: the single output written by the only instruction, when
	// that is all the statement does (hipgen_ptx_value's case).
	single struct {
		op    int
		value string
	}
	code []string // each instruction's expression
	// regs are the registers the template declares (.reg): a predicate's
	// value is a condition, another register's the expression it was
	// last given, substituted where it is read.
	regs map[string]*ptxReg
	// Of the instruction being rewritten: the operands its expressions
	// read, whether they read memory (or an output, which code may have
	// written since), and whether it wrote a register of the template.
	refs     []int
	impure   bool
	wroteReg bool
	epoch    int // instructions so far that emitted code
}

// ptxReg is a register an asm template declares.
type ptxReg struct {
	typ   ptxType
	pred  bool
	value string // "" until written
	ops   []int  // the operands value reads
	pure  bool   // value reads no memory and no output
	epoch int    // when it was written
	reads int
}

// parseAsmOperands reads an extended asm statement's operands, between
// the parentheses at open and close: the template's string literals, then
// outputs, inputs and clobbers after colons. It returns the template's
// text (escapes decoded, %% kept), the operands, outputs first, and
// whether the statement has that shape and nothing this code cannot
// copy: named operands, goto labels, a directive among the arguments.
func (t *translator) parseAsmOperands(open, close int) (string, []asmOperand, bool) {
	var tmpl strings.Builder
	i := open + 1
	for ; i < close && t.tok(i).Kind == lex.String; i++ {
		s, ok := decodeAsmString(t.text(i))
		if !ok {
			return "", nil, false
		}
		tmpl.WriteString(s)
	}
	if i == open+1 {
		return "", nil, false
	}
	dir := t.tok(open).Directive
	var ops []asmOperand
	section := 0 // 1 outputs, 2 inputs, 3 clobbers
	for i < close {
		switch {
		case t.is(i, ":"):
			section++
			i++
			continue
		case t.is(i, "::"):
			section += 2
			i++
			continue
		}
		if section == 0 || section > 3 {
			return "", nil, false
		}
		if t.tok(i).Directive != dir {
			return "", nil, false
		}
		if section == 3 {
			// Clobbers: strings and commas.
			if t.tok(i).Kind != lex.String && !t.is(i, ",") {
				return "", nil, false
			}
			i++
			continue
		}
		if t.is(i, ",") && len(ops) > 0 && !t.is(i-1, ":") && !t.is(i-1, "::") {
			i++
			continue
		}
		// "constraint" ( expression )
		if t.tok(i).Kind != lex.String || !t.isByte(i+1, '(') {
			return "", nil, false
		}
		c, ok := decodeAsmString(t.text(i))
		if !ok {
			return "", nil, false
		}
		end := t.matching(i + 1)
		if end < 0 || end > close || end == i+2 {
			return "", nil, false
		}
		op := asmOperand{first: i + 2, last: end - 1}
		switch {
		case section == 1 && strings.HasPrefix(c, "="):
			op.out, c = true, c[1:]
		case section == 1 && strings.HasPrefix(c, "+"):
			op.out, op.inout, c = true, true, c[1:]
		case section == 1:
			return "", nil, false
		}
		if len(c) != 1 || strings.IndexByte("rlhfdn", c[0]) < 0 || (op.out && c[0] == 'n') {
			return "", nil, false
		}
		op.class = c[0]
		for j := op.first; j <= op.last; j++ {
			if t.tok(j).Directive != dir || t.is(j, ";") || t.isByte(j, '{') || t.isByte(j, '}') {
				return "", nil, false
			}
			if t.is(j, ",") && !t.inside(op.first-1, j) {
				return "", nil, false // a comma operator: copied into a call, it would split the arguments
			}
		}
		if strings.Contains(t.span(op.first, op.last), "//") || strings.Contains(t.span(op.first, op.last), "/*") {
			return "", nil, false
		}
		ops = append(ops, op)
		i = end + 1
	}
	// Outputs come first in ops, as they are numbered.
	return tmpl.String(), ops, true
}

// inside reports whether the token j is inside brackets opened after the
// token open (the operand's own parenthesis).
func (t *translator) inside(open, j int) bool {
	depth := 0
	for i := open + 1; i < j; i++ {
		switch {
		case t.isByte(i, '('), t.isByte(i, '['), t.isByte(i, '{'):
			depth++
		case t.isByte(i, ')'), t.isByte(i, ']'), t.isByte(i, '}'):
			depth--
		}
	}
	return depth > 0
}

// decodeAsmString returns the contents of a plain string literal with its
// escapes decoded (\n and \t as blanks, which is all they are to ptxas
// here); other escapes, a prefix or a raw string give ok false.
func decodeAsmString(lit []byte) (string, bool) {
	if len(lit) < 2 || lit[0] != '"' || lit[len(lit)-1] != '"' {
		return "", false
	}
	body := lit[1 : len(lit)-1]
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		if i+1 >= len(body) {
			return "", false
		}
		i++
		switch body[i] {
		case 'n', 't', 'r':
			b.WriteByte('\n')
		case '\\', '"', '\'':
			b.WriteByte(body[i])
		case '\n':
			// A line continuation inside the literal.
		default:
			return "", false
		}
	}
	return b.String(), true
}

// ptxInstructions rewrites the asm statement at k (its parentheses at
// open and close) when every instruction of its template is one HIP
// computes without assembly (see the top of this file). It reports whether
// it did.
func (t *translator) ptxInstructions(k, open, close int) bool {
	tmpl, ops, ok := t.parseAsmOperands(open, close)
	if !ok {
		return false
	}
	extended := false
	for i := open + 1; i < close; i++ {
		if t.is(i, ":") || t.is(i, "::") {
			extended = true
			break
		}
	}
	if extended {
		tmpl = strings.ReplaceAll(tmpl, "%%", "%")
	}
	tmpl = strings.TrimSpace(tmpl)
	if inner, ok := scopeBody(tmpl); ok {
		// A scope around the instructions changes nothing: the
		// registers it declares are the template's own.
		tmpl = inner
	}
	p := &ptxAsm{t: t, ops: ops}
	n := 0
	for _, stmt := range strings.FieldsFunc(tmpl, func(r rune) bool { return r == ';' || r == '\n' }) {
		stmt = strings.TrimSpace(stmt)
		if stmt == "" {
			continue
		}
		if !strings.HasPrefix(stmt, ".reg") {
			n++
		}
		if !p.instruction(stmt) {
			return false
		}
	}
	if n == 0 {
		return false
	}
	// An operand named more than once (an input and output at once, "+r",
	// or one used by two instructions) is evaluated more than once: only
	// an expression without side effects may be.
	for _, op := range p.ops {
		if op.uses > 1 && !t.sideEffectFree(op.first, op.last) {
			return false
		}
	}
	// Inputs read by a later instruction after an earlier one wrote an
	// output with the same text would see the new value; PTX reads every
	// input first. Refuse multi-instruction statements where that could be.
	if len(p.code) > 1 {
		for _, o := range p.ops {
			if !o.out {
				continue
			}
			for _, in := range p.ops {
				if !in.out && t.span(in.first, in.last) == t.span(o.first, o.last) {
					return false
				}
			}
		}
	}
	start := int(t.tok(k).Start)
	var prefix string
	if len(p.code) == 1 && p.single.value != "" {
		o := p.ops[p.single.op]
		prefix = ptxValue + "(" + t.span(o.first, o.last) + ", " + p.single.value + ", "
		t.notePolyfill(ptxValueKey, start)
	} else {
		code := p.code[0]
		if len(p.code) > 1 {
			code = "(" + strings.Join(p.code, ", ") + ")"
		}
		prefix = ptxCode + "(" + code + ", "
		t.notePolyfill(ptxCodeKey, start)
	}
	// What goes before the asm stays within wrappedPTX's reach, which
	// tells a translation's own rewrite when it is translated again.
	if len(prefix) > ptxPrefixMax {
		return false
	}
	t.insert(start, prefix)
	t.insert(int(t.tok(close).End), ")")
	for _, key := range p.keys {
		t.notePolyfill(key, start)
	}
	t.needRuntime = true
	macro := ptxCode
	if len(p.code) == 1 && p.single.value != "" {
		macro = ptxValue
	}
	t.report(k, diag.Note, "inline-asm", "inline PTX became "+macro+"(..., asm(...)), which HIP computes without assembly: "+strings.Join(p.what, "; ")+"; the asm is kept as the macro's last argument, which is not compiled")
	return true
}

// scopeBody returns what is inside the braces when the template s is one
// scope, { ... }.
func scopeBody(s string) (string, bool) {
	if !strings.HasPrefix(s, "{") || !strings.HasSuffix(s, "}") {
		return "", false
	}
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 && i != len(s)-1 {
				return "", false
			}
		}
	}
	return strings.TrimSpace(s[1 : len(s)-1]), depth == 0
}

// sideEffectFree reports whether the tokens first..last name a value
// without changing anything: no assignment, increment or call (a cast's
// parentheses are fine).
func (t *translator) sideEffectFree(first, last int) bool {
	for i := first; i <= last; i++ {
		switch string(t.text(i)) {
		case "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "++", "--":
			return false
		case "(":
			if i > first && t.tok(i-1).Kind == lex.Ident {
				return false
			}
		}
	}
	return true
}

// ptxType is a PTX instruction type: 'b', 'u', 's' or 'f', and its width.
type ptxType struct {
	kind byte
	bits int
}

func parsePTXType(s string) (ptxType, bool) {
	if len(s) < 2 || strings.IndexByte("busf", s[0]) < 0 {
		return ptxType{}, false
	}
	n, err := strconv.Atoi(s[1:])
	if err != nil || (n != 8 && n != 16 && n != 32 && n != 64) || (s[0] == 'f' && n < 16) {
		return ptxType{}, false
	}
	return ptxType{s[0], n}, true
}

// cType is the C type of a value of type p (f16 as its bits).
func (p ptxType) cType() string {
	if p.kind == 'f' && p.bits == 32 {
		return "float"
	}
	if p.kind == 'f' && p.bits == 64 {
		return "double"
	}
	signed := p.kind == 's'
	var s string
	switch p.bits {
	case 8:
		s = "char"
		if !signed {
			return "unsigned char"
		}
		return "signed char"
	case 16:
		s = "short"
	case 32:
		s = "int"
	default:
		s = "long long"
	}
	if signed {
		return s
	}
	return "unsigned " + s
}

func (p ptxType) float() bool { return p.kind == 'f' && p.bits >= 32 }

// bitsType is the unsigned type of p's width.
func (p ptxType) bitsType() ptxType { return ptxType{'u', p.bits} }

// classBits is the width of a register of an operand class.
func classBits(c byte) int {
	switch c {
	case 'h':
		return 16
	case 'l', 'd':
		return 64
	}
	return 32
}

// operand returns the operand %N written as s, or -1.
func (p *ptxAsm) operand(s string) int {
	if len(s) < 2 || s[0] != '%' {
		return -1
	}
	n, err := strconv.Atoi(s[1:])
	if err != nil || n < 0 || n >= len(p.ops) || s[1] == '+' || s[1] == '-' {
		return -1
	}
	return n
}

// immediate reports whether s is an integer literal PTX and C read alike.
func immediate(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" {
		return false
	}
	if strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X") {
		s = s[2:]
		if s == "" {
			return false
		}
		for _, c := range s {
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
				return false
			}
		}
		return true
	}
	if len(s) > 1 && s[0] == '0' {
		return false // octal in C, decimal... not worth the doubt
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// read returns a C expression for the source operand s as a value of
// type typ, or ok false.
func (p *ptxAsm) read(s string, typ ptxType) (string, bool) {
	s = strings.TrimSpace(s)
	if immediate(s) {
		if typ.float() {
			return "", false
		}
		return "(" + typ.cType() + ")(" + s + ")", true
	}
	if r := p.regs[s]; r != nil {
		return p.readReg(r, typ)
	}
	n := p.operand(s)
	if n < 0 {
		return "", false
	}
	op := &p.ops[n]
	if op.out && !op.inout {
		return "", false // PTX would read what the statement has not written
	}
	if op.out {
		p.impure = true // code emitted since may have written it
	}
	op.uses++
	p.refs = append(p.refs, n)
	e := p.t.span(op.first, op.last)
	switch {
	case op.class == 'n':
		if typ.float() {
			return "", false
		}
		return "(" + typ.cType() + ")(" + e + ")", true
	case typ.float():
		switch {
		case op.class == 'f' && typ.bits == 32, op.class == 'd' && typ.bits == 64:
			return "(" + typ.cType() + ")(" + e + ")", true
		case op.class == 'r' && typ.bits == 32:
			return "__uint_as_float((unsigned int)(" + e + "))", true
		case op.class == 'l' && typ.bits == 64:
			return "__longlong_as_double((long long)(" + e + "))", true
		}
		return "", false
	case op.class == 'f':
		if typ.bits != 32 {
			return "", false
		}
		return "(" + typ.cType() + ")__float_as_uint(" + e + ")", true
	case op.class == 'd':
		if typ.bits != 64 {
			return "", false
		}
		return "(" + typ.cType() + ")__double_as_longlong(" + e + ")", true
	}
	if classBits(op.class) < typ.bits {
		return "", false
	}
	return "(" + typ.cType() + ")(" + e + ")", true
}

// readReg reads the register r as a value of type typ: the expression it
// was given, when evaluating it here computes what PTX read. A register
// whose value reads memory is read once, with no code emitted between its
// write and its read; any other may be read again, its operands then
// evaluated again.
func (p *ptxAsm) readReg(r *ptxReg, typ ptxType) (string, bool) {
	if r.pred || r.value == "" || (!r.pure && r.epoch != p.epoch) {
		return "", false
	}
	if r.reads++; r.reads > 1 {
		if !r.pure {
			return "", false
		}
		for _, n := range r.ops {
			p.ops[n].uses++
		}
	}
	if r.typ.float() != typ.float() || r.typ.float() && r.typ.bits != typ.bits {
		return "", false
	}
	p.refs = append(p.refs, r.ops...)
	if !r.pure {
		p.impure = true
	}
	return "(" + typ.cType() + ")(" + r.value + ")", true
}

// declare takes a .reg declaration: ".reg .pred p, q" or ".reg .u64 a".
func (p *ptxAsm) declare(decl string) bool {
	f := strings.Fields(strings.ReplaceAll(decl, ",", " "))
	if len(f) < 3 || f[0] != ".reg" || f[1][0] != '.' {
		return false
	}
	r := ptxReg{pred: f[1] == ".pred"}
	if !r.pred {
		var ok bool
		if r.typ, ok = parsePTXType(f[1][1:]); !ok || r.typ.bits < 16 {
			return false
		}
	}
	for _, name := range f[2:] {
		if !ptxName(name) || p.regs[name] != nil {
			return false
		}
		if p.regs == nil {
			p.regs = map[string]*ptxReg{}
		}
		reg := r
		p.regs[name] = &reg
	}
	return true
}

// ptxName reports whether s is a name a template may give a register.
func ptxName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for _, c := range s {
		if !(c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// setReg gives the register named s the value value of type typ, if s
// names one of the template's registers; it reports whether it did, and
// ok false when s names one that cannot take it.
func (p *ptxAsm) setReg(s string, typ ptxType, value string) (done, ok bool) {
	r := p.regs[strings.TrimSpace(s)]
	if r == nil {
		return false, true
	}
	if r.pred || r.typ.float() != typ.float() || r.typ.float() && r.typ.bits != typ.bits {
		return true, false
	}
	if r.typ != typ {
		value = "(" + r.typ.cType() + ")(" + value + ")"
	}
	r.value, r.pure, r.epoch, r.reads = value, !p.impure, p.epoch, 0
	r.ops = append([]int(nil), p.refs...)
	p.wroteReg = true
	return true, true
}

// write makes the instruction's result, value of type typ, the value of
// the destination operand s: it returns the operand and the value in the
// operand's C type (the bits, where PTX moves bits between a float and an
// integer register), or ok false.
func (p *ptxAsm) write(s string, typ ptxType, value string) (int, string, bool) {
	n := p.operand(strings.TrimSpace(s))
	if n < 0 || !p.ops[n].out {
		return -1, "", false
	}
	op := &p.ops[n]
	op.uses++
	switch {
	case typ.float() && (op.class == 'f' && typ.bits == 32 || op.class == 'd' && typ.bits == 64):
	case typ.float() && op.class == 'r' && typ.bits == 32:
		value = "__float_as_uint(" + value + ")"
	case typ.float() && op.class == 'l' && typ.bits == 64:
		value = "__double_as_longlong(" + value + ")"
	case typ.float():
		return -1, "", false
	case op.class == 'f' && typ.bits == 32:
		value = "__uint_as_float((unsigned int)(" + value + "))"
	case op.class == 'd' && typ.bits == 64:
		value = "__longlong_as_double((long long)(" + value + "))"
	case op.class == 'f' || op.class == 'd':
		return -1, "", false
	case classBits(op.class) < typ.bits:
		return -1, "", false
	}
	return n, value, true
}

// assign records that the instruction writes value (of type typ) to the
// destination operand s.
func (p *ptxAsm) assign(s string, typ ptxType, value string) bool {
	if done, ok := p.setReg(s, typ, value); done {
		return ok
	}
	n, v, ok := p.write(s, typ, value)
	if !ok {
		return false
	}
	if len(p.code) == 0 {
		p.single.op, p.single.value = n, v
	} else {
		p.single.value = ""
	}
	p.code = append(p.code, "(("+p.t.span(p.ops[n].first, p.ops[n].last)+") = ("+v+"))")
	return true
}

// effect records an instruction that writes no output operand.
func (p *ptxAsm) effect(code string) {
	p.single.value = ""
	p.code = append(p.code, code)
}

// helper records that the rewrite calls the helper name (its key among
// the polyfills is "asm:" and the name).
func (p *ptxAsm) helper(name string) string {
	p.polyfill("asm:" + name)
	return name
}

// splitOperands splits an instruction's operands at commas outside braces
// and brackets.
func splitOperands(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	if rest := strings.TrimSpace(s[start:]); rest != "" || len(out) > 0 {
		out = append(out, rest)
	}
	return out
}

// instruction rewrites one PTX instruction, recording its code; it
// reports whether it could.
func (p *ptxAsm) instruction(stmt string) bool {
	if strings.HasPrefix(stmt, ".reg") {
		return p.declare(stmt)
	}
	if stmt[0] == '.' {
		return false // another directive
	}
	// A guard, @p or @!p, on an instruction that writes no register of
	// the template: its code runs when the predicate holds.
	guard := ""
	if stmt[0] == '@' {
		i := strings.IndexAny(stmt, " \t")
		if i < 0 {
			return false
		}
		name, not := stmt[1:i], false
		if strings.HasPrefix(name, "!") {
			name, not = name[1:], true
		}
		r := p.regs[name]
		if r == nil || !r.pred || r.value == "" {
			return false
		}
		if r.reads++; r.reads > 1 {
			for _, n := range r.ops {
				p.ops[n].uses++
			}
		}
		guard = r.value
		if not {
			guard = "!" + guard
		}
		stmt = strings.TrimSpace(stmt[i:])
	}
	p.refs, p.impure, p.wroteReg = nil, false, false
	before := len(p.code)
	if !p.operation(stmt) {
		return false
	}
	if guard != "" {
		if p.wroteReg {
			return false // a register written or not: its later reads would not know
		}
		if len(p.code) > before {
			p.code = append(p.code[:before], "("+guard+" ? (void)("+strings.Join(p.code[before:], ", ")+") : (void)0)")
		}
		p.single.value = ""
	}
	if len(p.code) > before {
		p.epoch++
	}
	return true
}

// operation rewrites one instruction without its guard.
func (p *ptxAsm) operation(stmt string) bool {
	op, rest := stmt, ""
	if i := strings.IndexAny(stmt, " \t"); i >= 0 {
		op, rest = stmt[:i], strings.TrimSpace(stmt[i:])
	}
	args := splitOperands(rest)
	for _, a := range args {
		if a == "" {
			return false
		}
	}
	q := strings.Split(op, ".")
	name, quals := q[0], q[1:]
	switch name {
	case "ld":
		return p.load(quals, args)
	case "st":
		return p.store(quals, args)
	case "bfe", "bfi", "bfind", "prmt", "lop3", "popc", "clz", "brev":
		return p.bits(name, quals, args)
	case "mul", "mad":
		return p.multiply(name, quals, args)
	case "ex2", "lg2", "rcp", "rsqrt", "sqrt", "sin", "cos", "tanh":
		return p.math(name, quals, args)
	case "cvt":
		return p.convert(quals, args)
	case "atom", "red":
		return p.atomic(name, quals, args)
	case "membar", "fence":
		return p.fence(name, quals, args)
	case "bar", "barrier":
		// bar.sync 0 (and barrier.sync 0): every thread of the block.
		switch strings.Join(quals, ".") {
		case "sync", "cta.sync", "sync.aligned", "cta.sync.aligned":
			if len(args) == 1 && args[0] == "0" {
				p.effect("__syncthreads()")
				p.what = append(p.what, name+"."+strings.Join(quals, ".")+" 0 is __syncthreads()")
				return true
			}
		}
		return false
	case "trap", "brkpt":
		if len(quals) != 0 || len(args) != 0 {
			return false
		}
		if name == "trap" {
			p.effect("__builtin_trap()")
			p.what = append(p.what, "trap is __builtin_trap()")
		} else {
			p.effect("__builtin_debugtrap()")
			p.what = append(p.what, "brkpt is __builtin_debugtrap()")
		}
		return true
	case "mov":
		return p.move(quals, args)
	case "setp":
		return p.compare(quals, args)
	case "add", "sub", "and", "or", "xor", "not":
		return p.logic(name, quals, args)
	case "cvta":
		return p.addressSpace(quals, args)
	case "shfl":
		return p.shuffle(quals, args)
	case "cp":
		return p.asyncCopy(quals, args)
	case "prefetch", "prefetchu":
		if len(args) != 1 || !strings.HasPrefix(args[0], "[") {
			return false
		}
		p.effect("(void)0")
		p.what = append(p.what, name+"."+strings.Join(quals, ".")+" is a hint, which HIP does without")
		return true
	}
	return false
}

// address reads a memory operand, [a], [a+imm] or [a-imm], where a is an
// operand or a register of the template: a 64-bit address, or for the
// shared space a 32- or 64-bit address in that space, which
// hipgen_cvta_shared_to_generic makes a pointer. It returns a C
// expression for it, a pointer or an integer (the callers cast it), in
// parentheses.
func (p *ptxAsm) address(s string, load bool, space string) (string, bool) {
	if len(s) < 3 || s[0] != '[' || s[len(s)-1] != ']' {
		return "", false
	}
	in := strings.ReplaceAll(s[1:len(s)-1], " ", "")
	sign, off := "", ""
	if i := strings.IndexAny(in, "+-"); i > 0 {
		in, off = in[:i], in[i:]
		switch {
		case strings.HasPrefix(off, "+-"):
			sign, off = "-", off[2:]
		case strings.HasPrefix(off, "-"):
			sign, off = "-", off[1:]
		default:
			sign, off = "+", off[1:]
		}
		if !immediate(off) || off[0] == '-' {
			return "", false
		}
	}
	var e string
	if r := p.regs[in]; r != nil {
		if r.pred || r.typ.float() || r.typ.bits < 32 || r.typ.bits == 32 && space != "shared" {
			return "", false
		}
		v, ok := p.readReg(r, r.typ)
		if !ok {
			return "", false
		}
		e = v
	} else {
		n := p.operand(in)
		if n < 0 || p.ops[n].out && !p.ops[n].inout {
			return "", false
		}
		if c := p.ops[n].class; c != 'l' && !(c == 'r' && space == "shared") {
			return "", false
		}
		if p.ops[n].out {
			p.impure = true
		}
		p.ops[n].uses++
		p.refs = append(p.refs, n)
		e = "(" + p.t.span(p.ops[n].first, p.ops[n].last) + ")"
	}
	if space == "shared" {
		p.polyfill("__cvta_shared_to_generic")
		e = "hipgen_cvta_shared_to_generic((size_t)" + e + ")"
	}
	if off != "" {
		ptr := "char*"
		if load {
			ptr = "const char*"
		}
		e = "((" + ptr + ")" + e + " " + sign + " " + off + ")"
	}
	return e, true
}

// polyfill records that the rewrite calls the polyfill of key.
func (p *ptxAsm) polyfill(key string) {
	for _, k := range p.keys {
		if k == key {
			return
		}
	}
	p.keys = append(p.keys, key)
}

// memoryQualifiers sorts a load's or store's qualifiers: the type, the
// vector width, the ordering ("" for a plain access, "volatile", or a
// __ATOMIC_ order), and whether all the others only hint at caching.
func memoryQualifiers(quals []string, load bool) (typ ptxType, vec int, order, space string, ok bool) {
	vec = 1
	for i, q := range quals {
		if i == len(quals)-1 {
			typ, ok = parsePTXType(q)
			if !ok {
				return typ, vec, order, space, false
			}
			continue
		}
		switch {
		case q == "shared" || q == "shared::cta":
			space = "shared"
		case q == "global" || q == "weak" || q == "ca" || q == "cg" || q == "cs" || q == "lu" || q == "nc" || q == "wb" || q == "wt":
		case q == "cv":
			if order == "" {
				order = "volatile"
			}
		case q == "volatile":
			order = "volatile"
		case q == "relaxed":
			order = "__ATOMIC_RELAXED"
		case q == "acquire" && load, q == "release" && !load:
			order = "__ATOMIC_" + strings.ToUpper(q)
		case q == "cta" || q == "gpu" || q == "sys" || q == "cluster":
			// The scope of an ordered access: a system-wide one is at
			// least as strong.
		case q == "v2":
			vec = 2
		case q == "v4":
			vec = 4
		case strings.HasPrefix(q, "L1::evict_") || q == "L1::no_allocate" || strings.HasPrefix(q, "L2::evict_") ||
			q == "L2::64B" || q == "L2::128B" || q == "L2::256B":
		default:
			return typ, vec, order, space, false
		}
	}
	if vec > 1 && order != "" || typ.kind == 'f' && typ.bits == 16 || len(quals) == 0 {
		return typ, vec, order, space, false
	}
	return typ, vec, order, space, true
}

// elementType is the C type a vector or ordered access moves for the
// operands of class c, with PTX type typ: the float type for float
// registers, the unsigned bits otherwise.
func elementType(c byte, typ ptxType) ptxType {
	if c == 'f' && typ.bits == 32 {
		return ptxType{'f', 32}
	}
	if c == 'd' && typ.bits == 64 {
		return ptxType{'f', 64}
	}
	return typ.bitsType()
}

// load rewrites ld: a plain, volatile or atomic access of the same width.
func (p *ptxAsm) load(quals []string, args []string) bool {
	typ, vec, order, space, ok := memoryQualifiers(quals, true)
	if !ok || len(args) != 2 {
		return false
	}
	p.impure = true // what it reads, a register must not read later
	addr, ok := p.address(args[1], true, space)
	if !ok {
		return false
	}
	cache := "ld." + strings.Join(quals, ".")
	if vec == 1 {
		dst := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(args[0], "{"), "}"))
		var value string
		switch order {
		case "":
			value = "*(const " + typ.cType() + "*)" + addr
		case "volatile":
			value = "*(const volatile " + typ.cType() + "*)" + addr
		default:
			typ = typ.bitsType()
			value = "__atomic_load_n((const " + typ.cType() + "*)" + addr + ", " + order + ")"
		}
		if !p.assign(dst, typ, value) {
			return false
		}
		p.what = append(p.what, cache+" is a load "+orderWords(order))
		return true
	}
	if args[0][0] != '{' || args[0][len(args[0])-1] != '}' {
		return false
	}
	dsts := splitOperands(args[0][1 : len(args[0])-1])
	if len(dsts) != vec {
		return false
	}
	var refs []string
	class := byte(0)
	for _, d := range dsts {
		n := p.operand(d)
		if n < 0 || !p.ops[n].out || class != 0 && p.ops[n].class != class {
			return false
		}
		class = p.ops[n].class
		if classBits(class) < typ.bits || (class == 'f' || class == 'd') && classBits(class) != typ.bits {
			return false
		}
		p.ops[n].uses++
		refs = append(refs, p.t.span(p.ops[n].first, p.ops[n].last))
	}
	elem := elementType(class, typ)
	if typ.kind == 's' && typ.bits < 32 {
		elem = typ
	}
	h := p.helper("hipgen_ptx_ld_v" + strconv.Itoa(vec))
	p.effect(h + "<" + elem.cType() + ">((const void*)" + addr + ", " + strings.Join(refs, ", ") + ")")
	p.what = append(p.what, cache+" is one "+strconv.Itoa(vec*typ.bits)+"-bit load "+orderWords(order))
	return true
}

// orderWords tells what a load or store's ordering became.
func orderWords(order string) string {
	switch order {
	case "":
		return "(its cache operators only decide how the line is cached)"
	case "volatile":
		return "through a volatile pointer"
	}
	return "with __atomic builtins (" + order + ", system scope: at least as strong as PTX's)"
}

// store rewrites st.
func (p *ptxAsm) store(quals []string, args []string) bool {
	typ, vec, order, space, ok := memoryQualifiers(quals, false)
	if !ok || len(args) != 2 {
		return false
	}
	addr, ok := p.address(args[0], false, space)
	if !ok {
		return false
	}
	cache := "st." + strings.Join(quals, ".")
	if vec == 1 {
		src := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(args[1], "{"), "}"))
		// Ordered stores move the bits; plain ones the register's value
		// (a float register's as float).
		ct := typ.bitsType()
		if n := p.operand(src); n >= 0 && (order == "" || order == "volatile") {
			ct = elementType(p.ops[n].class, typ)
		}
		v, ok := p.read(src, ct)
		if !ok {
			return false
		}
		switch order {
		case "":
			p.effect("(*(" + ct.cType() + "*)" + addr + " = " + v + ")")
		case "volatile":
			p.effect("(*(volatile " + ct.cType() + "*)" + addr + " = " + v + ")")
		default:
			p.effect("__atomic_store_n((" + ct.cType() + "*)" + addr + ", " + v + ", " + order + ")")
		}
		p.what = append(p.what, cache+" is a store "+orderWords(order))
		return true
	}
	if args[1][0] != '{' || args[1][len(args[1])-1] != '}' {
		return false
	}
	srcs := splitOperands(args[1][1 : len(args[1])-1])
	if len(srcs) != vec {
		return false
	}
	class := byte(0)
	for _, s := range srcs {
		if n := p.operand(s); n >= 0 {
			if class != 0 && p.ops[n].class != class {
				return false
			}
			class = p.ops[n].class
		}
	}
	elem := elementType(class, typ)
	var vals []string
	for _, s := range srcs {
		v, ok := p.read(s, elem)
		if !ok {
			return false
		}
		vals = append(vals, v)
	}
	h := p.helper("hipgen_ptx_st_v" + strconv.Itoa(vec))
	p.effect(h + "<" + elem.cType() + ">((void*)" + addr + ", " + strings.Join(vals, ", ") + ")")
	p.what = append(p.what, cache+" is one "+strconv.Itoa(vec*typ.bits)+"-bit store "+orderWords(order))
	return true
}

// bits rewrites the bit-manipulation instructions.
func (p *ptxAsm) bits(name string, quals []string, args []string) bool {
	if len(quals) == 0 {
		return false
	}
	typ, ok := parsePTXType(quals[len(quals)-1])
	if !ok || typ.kind == 'f' {
		return false
	}
	mode := strings.Join(quals[:len(quals)-1], ".")
	u32 := ptxType{'u', 32}
	var h string
	var srcs []ptxType
	var result ptxType
	switch {
	case name == "bfe" && mode == "" && typ.bits >= 32:
		h, srcs, result = "hipgen_ptx_bfe_"+string(typ.kind)+strconv.Itoa(typ.bits), []ptxType{typ, u32, u32}, typ
		if typ.kind == 'b' {
			return false
		}
	case name == "bfi" && mode == "" && typ.bits >= 32 && typ.kind == 'b':
		h, srcs, result = "hipgen_ptx_bfi_b"+strconv.Itoa(typ.bits), []ptxType{typ, typ, u32, u32}, typ
	case name == "bfind" && (mode == "" || mode == "shiftamt") && typ.bits >= 32 && typ.kind != 'b':
		h, srcs, result = "hipgen_ptx_bfind_"+string(typ.kind)+strconv.Itoa(typ.bits), []ptxType{typ}, u32
		if mode != "" {
			h += "_shiftamt"
		}
	case name == "prmt" && mode == "" && typ.bits == 32 && typ.kind == 'b':
		h, srcs, result = "hipgen_ptx_prmt", []ptxType{typ, typ, typ}, typ
	case name == "lop3" && mode == "" && typ.bits == 32 && typ.kind == 'b':
		h, srcs, result = "hipgen_ptx_lop3", []ptxType{typ, typ, typ, u32}, typ
	case name == "popc" && mode == "" && typ.kind == 'b' && typ.bits >= 32:
		h, srcs, result = "__popc", []ptxType{typ}, u32
		if typ.bits == 64 {
			h = "__popcll"
		}
	case name == "clz" && mode == "" && typ.kind == 'b' && typ.bits >= 32:
		h, srcs, result = "hipgen_ptx_clz_b"+strconv.Itoa(typ.bits), []ptxType{typ}, u32
	case name == "brev" && mode == "" && typ.kind == 'b' && typ.bits >= 32:
		h, srcs, result = "__brev", []ptxType{typ}, typ
		if typ.bits == 64 {
			h = "__brevll"
		}
	default:
		return false
	}
	if len(args) != len(srcs)+1 {
		return false
	}
	var vals []string
	for i, s := range srcs {
		v, ok := p.read(args[i+1], s)
		if !ok {
			return false
		}
		vals = append(vals, v)
	}
	if strings.HasPrefix(h, "hipgen_") {
		h = p.helper(h)
	}
	if !p.assign(args[0], result, h+"("+strings.Join(vals, ", ")+")") {
		return false
	}
	p.what = append(p.what, name+"."+strings.Join(quals, ".")+" is "+h+"(), as the PTX ISA defines it")
	return true
}

// multiply rewrites mul and mad of integers: .lo, .hi and .wide.
func (p *ptxAsm) multiply(name string, quals []string, args []string) bool {
	if len(quals) != 2 {
		return false
	}
	typ, ok := parsePTXType(quals[1])
	if !ok || typ.kind == 'f' || typ.kind == 'b' || typ.bits < 16 {
		return false
	}
	want := 3
	if name == "mad" {
		want = 4
	}
	if len(args) != want {
		return false
	}
	// The product is computed in unsigned arithmetic, which wraps as
	// PTX's does (signed overflow is undefined in C++).
	mode := quals[0]
	var result ptxType
	var value, how string
	switch mode {
	case "lo", "wide":
		if mode == "lo" && typ.bits < 32 {
			return false // C++ would multiply in int, which can overflow
		}
		wide := typ
		if mode == "wide" {
			if typ.bits == 64 {
				return false
			}
			wide = ptxType{typ.kind, typ.bits * 2}
		}
		a, ok1 := p.read(args[1], typ)
		b, ok2 := p.read(args[2], typ)
		if !ok1 || !ok2 {
			return false
		}
		// Widen first (sign-extending a signed source), then multiply
		// in the unsigned type of the result's width.
		wu := wide.bitsType()
		unsigned := func(v string, t ptxType) string {
			if t.kind == 's' {
				return "(" + wu.cType() + ")" + v
			}
			if t.bits != wu.bits {
				return "(" + wu.cType() + ")" + v
			}
			return v
		}
		if wide.bits != typ.bits && typ.kind == 's' {
			a, b = "("+wide.cType()+")"+a, "("+wide.cType()+")"+b
		}
		value = unsigned(a, typ) + " * " + unsigned(b, typ)
		if name == "mad" {
			c, ok := p.read(args[3], wide)
			if !ok {
				return false
			}
			value += " + " + unsigned(c, wide)
		}
		result = wide
		if wide.kind == 's' {
			value = "(" + wide.cType() + ")(" + value + ")"
		}
		how = "C++ arithmetic"
	case "hi":
		if typ.bits < 32 || name == "mad" {
			return false
		}
		a, ok1 := p.read(args[1], typ)
		b, ok2 := p.read(args[2], typ)
		if !ok1 || !ok2 {
			return false
		}
		fn := map[ptxType]string{{'u', 32}: "__umulhi", {'s', 32}: "__mulhi", {'u', 64}: "__umul64hi", {'s', 64}: "__mul64hi"}[typ]
		value, result, how = fn+"("+a+", "+b+")", typ, fn+"()"
	default:
		return false
	}
	if !p.assign(args[0], result, value) {
		return false
	}
	p.what = append(p.what, name+"."+strings.Join(quals, ".")+" is "+how)
	return true
}

// ptxMath are PTX's math instructions of one float operand and what HIP
// computes them with.
var ptxMath = map[string]string{
	"ex2": "exp2f", "lg2": "__log2f", "rcp": "__frcp_rn", "rsqrt": "__frsqrt_rn", "sqrt": "__fsqrt_rn",
	"sin": "__sinf", "cos": "__cosf", "tanh": "tanhf",
}

// math rewrites the approximate and IEEE math instructions of one operand.
func (p *ptxAsm) math(name string, quals []string, args []string) bool {
	if len(quals) < 2 || len(args) != 2 {
		return false
	}
	typ := quals[len(quals)-1]
	approx := false
	for _, q := range quals[:len(quals)-1] {
		switch q {
		case "approx":
			approx = true
		case "ftz":
		case "rn":
			if name != "rcp" && name != "sqrt" {
				return false
			}
		default:
			return false
		}
	}
	if !approx && (name != "rcp" && name != "sqrt" || typ != "f32" && typ != "f64") {
		return false
	}
	fn := ptxMath[name]
	desc := name + "." + strings.Join(quals, ".")
	switch typ {
	case "f32":
		v, ok := p.read(args[1], ptxType{'f', 32})
		if !ok || !p.assign(args[0], ptxType{'f', 32}, fn+"("+v+")") {
			return false
		}
	case "f64":
		fn = map[string]string{"rcp": "__drcp_rn", "sqrt": "__dsqrt_rn"}[name]
		if fn == "" || approx {
			return false
		}
		v, ok := p.read(args[1], ptxType{'f', 64})
		if !ok || !p.assign(args[0], ptxType{'f', 64}, fn+"("+v+")") {
			return false
		}
	case "f16", "f16x2":
		if name != "ex2" && name != "tanh" {
			return false
		}
		bitsT := ptxType{'b', 16}
		if typ == "f16x2" {
			bitsT = ptxType{'b', 32}
		}
		h := p.helper("hipgen_ptx_" + name + "_" + typ)
		v, ok := p.read(args[1], bitsT)
		if !ok || !p.assign(args[0], bitsT, h+"("+v+")") {
			return false
		}
		fn = h
	default:
		return false
	}
	if approx {
		p.what = append(p.what, desc+" is "+fn+"(), whose last bits may differ from the approximation's")
	} else {
		p.what = append(p.what, desc+" is "+fn+"()")
	}
	return true
}

// ptxRounding maps cvt's rounding modifiers to the suffix of HIP's
// conversion functions.
var ptxRounding = map[string]string{"rn": "rn", "rz": "rz", "rm": "rd", "rp": "ru", "rni": "rn", "rzi": "rz", "rmi": "rd", "rpi": "ru"}

// ptxIntNames are the integer types' names in HIP's conversion functions
// (__float2int_rn, __ull2double_rz).
var ptxIntNames = map[ptxType]string{{'s', 32}: "int", {'u', 32}: "uint", {'s', 64}: "ll", {'u', 64}: "ull"}

// convert rewrites cvt between f16, f32, f64 and integers.
func (p *ptxAsm) convert(quals []string, args []string) bool {
	if len(quals) < 2 {
		return false
	}
	dst, src := quals[len(quals)-2], quals[len(quals)-1]
	round := ""
	for _, q := range quals[:len(quals)-2] {
		switch {
		case q == "ftz":
		case ptxRounding[q] != "" && round == "":
			round = q
		default:
			return false
		}
	}
	desc := "cvt." + strings.Join(quals, ".")
	if dst == "f16x2" && src == "f32" {
		if round != "rn" || len(args) != 3 {
			return false
		}
		a, ok1 := p.read(args[1], ptxType{'f', 32})
		b, ok2 := p.read(args[2], ptxType{'f', 32})
		h := p.helper("hipgen_ptx_cvt_rn_f16x2_f32")
		if !ok1 || !ok2 || !p.assign(args[0], ptxType{'b', 32}, h+"("+a+", "+b+")") {
			return false
		}
		p.what = append(p.what, desc+" is "+h+"()")
		return true
	}
	if len(args) != 2 {
		return false
	}
	dt, ok1 := parsePTXType(dst)
	st, ok2 := parsePTXType(src)
	if !ok1 || !ok2 {
		return false
	}
	half := func(t ptxType) bool { return t.kind == 'f' && t.bits == 16 }
	var value, how string
	to := dt
	switch {
	case half(dt) && st.kind == 'f' && st.bits == 32:
		if round != "rn" {
			return false // C++'s conversion rounds to nearest even only
		}
		h := p.helper("hipgen_ptx_cvt_rn_f16_f32")
		to = ptxType{'b', 16}
		v, ok := p.read(args[1], st)
		if !ok {
			return false
		}
		value, how = h+"("+v+")", h+"()"
	case half(st) && dt.kind == 'f' && dt.bits == 32:
		if round != "" {
			return false
		}
		h := p.helper("hipgen_ptx_cvt_f32_f16")
		v, ok := p.read(args[1], ptxType{'b', 16})
		if !ok {
			return false
		}
		value, how = h+"("+v+")", h+"()"
	case half(dt) || half(st):
		return false
	case st.float() && dt.float():
		if dt.bits == 32 && st.bits == 64 {
			if round == "" || round[len(round)-1] == 'i' {
				return false
			}
			value = "__double2float_" + ptxRounding[round]
		} else if round == "" && st.bits <= dt.bits {
			value = "(" + dt.cType() + ")"
		} else {
			return false
		}
		v, ok := p.read(args[1], st)
		if !ok {
			return false
		}
		how = value + "()"
		if value[0] == '(' {
			how = "a conversion to " + dt.cType()
		}
		value += "(" + v + ")"
	case st.float():
		// Float to integer: the rounding ends in i.
		if round == "" || round[len(round)-1] != 'i' || dt.bits < 32 {
			return false
		}
		v, ok := p.read(args[1], st)
		if !ok {
			return false
		}
		fromName := map[int]string{32: "float", 64: "double"}[st.bits]
		intoName := ptxIntNames[ptxType{dt.kind, dt.bits}]
		if intoName == "" {
			return false
		}
		how = "__" + fromName + "2" + intoName + "_" + ptxRounding[round] + "()"
		value = how[:len(how)-1] + v + ")"
	case dt.float():
		// Integer to float.
		if round == "" || round[len(round)-1] == 'i' || st.bits < 32 || st.kind == 'b' {
			return false
		}
		v, ok := p.read(args[1], st)
		if !ok {
			return false
		}
		intoName := map[int]string{32: "float", 64: "double"}[dt.bits]
		fromName := ptxIntNames[ptxType{st.kind, st.bits}]
		if fromName == "" || dt.bits == 64 && st.bits == 32 && round != "rn" {
			return false
		}
		how = "__" + fromName + "2" + intoName + "_" + ptxRounding[round] + "()"
		value = how[:len(how)-1] + v + ")"
	default:
		// Between integers: truncation or extension, as C's casts do.
		if round != "" || st.kind == 'b' || dt.kind == 'b' {
			return false
		}
		v, ok := p.read(args[1], st)
		if !ok {
			return false
		}
		value, how = "("+dt.cType()+")"+v, "a cast to "+dt.cType()
	}
	if !p.assign(args[0], to, value) {
		return false
	}
	p.what = append(p.what, desc+" is "+how)
	return true
}

// atomic rewrites atom and red with HIP's atomic functions.
func (p *ptxAsm) atomic(name string, quals []string, args []string) bool {
	if len(quals) < 2 {
		return false
	}
	typ, ok := parsePTXType(quals[len(quals)-1])
	if !ok {
		return false
	}
	opname := quals[len(quals)-2]
	system := false
	for _, q := range quals[:len(quals)-2] {
		switch q {
		case "global", "relaxed", "gpu", "cta":
		case "sys":
			system = true
		default:
			return false
		}
	}
	// The HIP function and the C type of its pointer.
	fn := map[string]string{"add": "atomicAdd", "min": "atomicMin", "max": "atomicMax", "and": "atomicAnd", "or": "atomicOr",
		"xor": "atomicXor", "exch": "atomicExch", "cas": "atomicCAS", "inc": "atomicInc", "dec": "atomicDec"}[opname]
	if fn == "" {
		return false
	}
	var ct ptxType
	switch {
	case opname == "add" && (typ == ptxType{'u', 32} || typ == ptxType{'s', 32} || typ == ptxType{'u', 64} || typ == ptxType{'f', 32} || typ == ptxType{'f', 64}):
		ct = typ
	case (opname == "min" || opname == "max") && (typ == ptxType{'u', 32} || typ == ptxType{'s', 32} || typ == ptxType{'u', 64}):
		ct = typ
	case (opname == "and" || opname == "or" || opname == "xor" || opname == "exch" || opname == "cas") && typ.kind == 'b' && typ.bits >= 32:
		ct = typ.bitsType()
	case (opname == "inc" || opname == "dec") && typ == ptxType{'u', 32}:
		ct = typ
	default:
		return false
	}
	if system {
		fn += "_system"
	}
	first := 1
	if name == "red" {
		first = 0
	}
	want := first + 2
	if opname == "cas" {
		want++
		if name == "red" {
			return false
		}
	}
	if len(args) != want {
		return false
	}
	p.impure = true
	addr, ok := p.address(args[first], false, "")
	if !ok {
		return false
	}
	call := fn + "((" + ct.cType() + "*)" + addr
	for _, a := range args[first+1:] {
		v, ok := p.read(a, ct)
		if !ok {
			return false
		}
		call += ", " + v
	}
	call += ")"
	desc := name + "." + strings.Join(quals, ".")
	if name == "red" {
		p.effect("(void)" + call)
	} else if !p.assign(args[0], ct, call) {
		return false
	}
	p.what = append(p.what, desc+" is "+fn+"()")
	return true
}

// fence rewrites membar and fence.
func (p *ptxAsm) fence(name string, quals []string, args []string) bool {
	if len(args) != 0 {
		return false
	}
	scope := ""
	switch {
	case name == "membar" && len(quals) == 1:
		scope = map[string]string{"cta": "cta", "gl": "gpu", "sys": "sys"}[quals[0]]
	case name == "fence" && len(quals) == 2 && (quals[0] == "sc" || quals[0] == "acq_rel"):
		scope = quals[1]
	}
	fn := map[string]string{"cta": "__threadfence_block", "gpu": "__threadfence", "sys": "__threadfence_system"}[scope]
	if fn == "" {
		return false
	}
	p.effect(fn + "()")
	p.what = append(p.what, name+"."+strings.Join(quals, ".")+" is "+fn+"()")
	return true
}

// ptxSpecialRegisters are the special registers mov reads that HIP has,
// with their width and what reads them.
var ptxSpecialRegisters = map[string]struct {
	bits  int
	value string
}{
	"%clock":   {32, "(unsigned int)clock64()"},
	"%clock64": {64, "(unsigned long long)clock64()"},
	"%smid":    {32, "(unsigned int)__smid()"},
	"%tid.x":   {32, "threadIdx.x"}, "%tid.y": {32, "threadIdx.y"}, "%tid.z": {32, "threadIdx.z"},
	"%ntid.x": {32, "blockDim.x"}, "%ntid.y": {32, "blockDim.y"}, "%ntid.z": {32, "blockDim.z"},
	"%ctaid.x": {32, "blockIdx.x"}, "%ctaid.y": {32, "blockIdx.y"}, "%ctaid.z": {32, "blockIdx.z"},
	"%nctaid.x": {32, "gridDim.x"}, "%nctaid.y": {32, "gridDim.y"}, "%nctaid.z": {32, "gridDim.z"},
}

// move rewrites mov of an operand, an immediate or a special register
// (the lane registers are ptxLaneRegister's).
func (p *ptxAsm) move(quals []string, args []string) bool {
	if len(quals) != 1 || len(args) != 2 {
		return false
	}
	typ, ok := parsePTXType(quals[0])
	if !ok || typ.bits < 16 || typ.kind == 'f' && typ.bits == 16 {
		return false
	}
	if r, ok := ptxSpecialRegisters[args[1]]; ok {
		if typ.bits != r.bits || typ.float() {
			return false
		}
		if !p.assign(args[0], typ.bitsType(), r.value) {
			return false
		}
		what := "mov of " + args[1] + " is " + strings.TrimPrefix(strings.TrimPrefix(r.value, "(unsigned int)"), "(unsigned long long)")
		if strings.HasPrefix(args[1], "%clock") {
			what += ", the AMD GPU's cycle counter"
		}
		p.what = append(p.what, what)
		return true
	}
	v, ok := p.read(args[1], typ)
	if !ok || !p.assign(args[0], typ, v) {
		return false
	}
	p.what = append(p.what, "mov is an assignment")
	return true
}

// ptxCompare maps setp's comparisons to C++'s operators: the unsigned
// ones (lo, ls, hi, hs) for integers, the ordered ones for floats too,
// which C++'s comparisons are (ne is not: C++'s != holds for NaN).
var ptxCompare = map[string]string{"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">=",
	"lo": "<", "ls": "<=", "hi": ">", "hs": ">="}

// compare rewrites setp into a predicate register's condition.
func (p *ptxAsm) compare(quals []string, args []string) bool {
	if len(quals) != 2 || len(args) != 3 {
		return false
	}
	op := ptxCompare[quals[0]]
	typ, ok := parsePTXType(quals[1])
	if op == "" || !ok || typ.bits < 16 || typ.kind == 'f' && typ.bits == 16 {
		return false
	}
	switch quals[0] {
	case "ne":
		if typ.kind == 'f' {
			return false
		}
	case "lo", "ls", "hi", "hs":
		if typ.kind == 's' || typ.kind == 'f' {
			return false
		}
	}
	if typ.kind == 'b' && op != "==" && op != "!=" {
		return false
	}
	r := p.regs[args[0]]
	if r == nil || !r.pred {
		return false
	}
	a, ok1 := p.read(args[1], typ)
	b, ok2 := p.read(args[2], typ)
	if !ok1 || !ok2 {
		return false
	}
	r.value, r.pure, r.epoch, r.reads = "("+a+" "+op+" "+b+")", !p.impure, p.epoch, 0
	r.ops = append([]int(nil), p.refs...)
	if !r.pure {
		return false // a condition is evaluated where it guards
	}
	p.wroteReg = true
	p.what = append(p.what, "setp."+strings.Join(quals, ".")+" is a condition")
	return true
}

// logic rewrites add, sub, and, or, xor and not of integers, in unsigned
// arithmetic, which wraps as PTX's does.
func (p *ptxAsm) logic(name string, quals []string, args []string) bool {
	if len(quals) != 1 {
		return false // .cc, .sat: carries and saturation
	}
	typ, ok := parsePTXType(quals[0])
	if !ok || typ.kind == 'f' || typ.bits < 32 {
		return false
	}
	if arith := name == "add" || name == "sub"; arith == (typ.kind == 'b') {
		return false // add and sub of .u and .s types, logic of .b ones
	}
	want := 3
	if name == "not" {
		want = 2
	}
	if len(args) != want {
		return false
	}
	u := typ.bitsType()
	a, ok := p.read(args[1], u)
	if !ok {
		return false
	}
	var value string
	if name == "not" {
		value = "(" + u.cType() + ")~" + a
	} else {
		b, ok := p.read(args[2], u)
		if !ok {
			return false
		}
		op := map[string]string{"add": "+", "sub": "-", "and": "&", "or": "|", "xor": "^"}[name]
		value = "(" + u.cType() + ")(" + a + " " + op + " " + b + ")"
	}
	if !p.assign(args[0], u, value) {
		return false
	}
	p.what = append(p.what, name+"."+quals[0]+" is C++ arithmetic")
	return true
}

// addressSpace rewrites cvta between generic addresses and those of the
// shared and global spaces, with hipgen's __cvta polyfills.
func (p *ptxAsm) addressSpace(quals []string, args []string) bool {
	if len(args) != 2 || len(quals) < 2 {
		return false
	}
	typ, ok := parsePTXType(quals[len(quals)-1])
	if !ok || typ.kind != 'u' || typ.bits < 32 {
		return false
	}
	var fn string
	switch strings.Join(quals[:len(quals)-1], ".") {
	case "to.shared", "to.shared::cta":
		fn = "__cvta_generic_to_shared"
	case "to.global":
		fn = "__cvta_generic_to_global"
	case "shared", "shared::cta":
		fn = "__cvta_shared_to_generic"
	case "global":
		fn = "__cvta_global_to_generic"
	default:
		return false
	}
	in := typ
	if strings.HasSuffix(fn, "_to_generic") && typ.bits == 32 {
		return false // a generic address has 64 bits
	}
	if strings.HasPrefix(fn, "__cvta_generic") {
		in = ptxType{'u', 64}
	}
	var a string
	if n := p.operand(strings.TrimSpace(args[1])); n >= 0 && p.ops[n].class == 'l' && !p.ops[n].out {
		// A pointer, as most often: no round trip through an integer.
		p.ops[n].uses++
		p.refs = append(p.refs, n)
		a = "(" + p.t.span(p.ops[n].first, p.ops[n].last) + ")"
	} else {
		var ok bool
		if a, ok = p.read(args[1], in); !ok {
			return false
		}
	}
	p.polyfill(fn)
	h := "hipgen_" + strings.TrimPrefix(fn, "__")
	value := "(" + typ.cType() + ")" + h + "((const void*)" + a + ")"
	if strings.HasSuffix(fn, "_to_generic") {
		value = "(" + typ.cType() + ")" + h + "((size_t)" + a + ")"
	}
	if !p.assign(args[0], typ, value) {
		return false
	}
	p.what = append(p.what, "cvta."+strings.Join(quals, ".")+" is "+h+"()")
	return true
}

// shuffle rewrites shfl (and shfl.sync, whose member mask HIP's shuffles
// have no use for) of 32 bits whose clamp operand is one that
// __shfl_sync's width gives: __shfl, __shfl_up, __shfl_down and __shfl_xor
// with that width, on 32-lane logical warps (with --wave=wide the whole
// wavefront for a width of 32).
func (p *ptxAsm) shuffle(quals []string, args []string) bool {
	sync := len(quals) == 3 && quals[0] == "sync"
	if sync {
		quals = quals[1:]
	}
	if len(quals) != 2 || quals[1] != "b32" || len(args) != 4 && !sync || len(args) != 5 && sync {
		return false
	}
	fn := map[string]string{"idx": "__shfl", "up": "__shfl_up", "down": "__shfl_down", "bfly": "__shfl_xor"}[quals[0]]
	if fn == "" || strings.Contains(args[0], "|") {
		return false
	}
	c := strings.TrimSpace(args[3])
	if n := p.operand(c); n >= 0 && p.ops[n].class == 'n' {
		c = p.t.span(p.ops[n].first, p.ops[n].last)
	}
	clamp, err := strconv.ParseUint(c, 0, 32)
	if err != nil {
		return false
	}
	width := 0
	for w := 1; w <= 32; w *= 2 {
		want := uint64(32-w) << 8
		if quals[0] != "up" {
			want |= 0x1f
		}
		if clamp == want {
			width = w
		}
	}
	if width == 0 {
		return false
	}
	if sync {
		// The member mask: an input or a constant, which HIP's shuffles
		// do without.
		m := strings.TrimSpace(args[4])
		if n := p.operand(m); !immediate(m) && (n < 0 || p.ops[n].out) {
			return false
		}
	}
	a, ok1 := p.read(args[1], ptxType{'u', 32})
	b, ok2 := p.read(args[2], ptxType{'s', 32})
	if !ok1 || !ok2 {
		return false
	}
	if quals[0] == "idx" {
		// The source lane within the segment, as PTX takes it (HIP's
		// __shfl would reach into the next segment).
		b = "(" + b + ") & " + strconv.Itoa(width-1)
	}
	w := ", " + strconv.Itoa(width)
	how := "a " + strconv.Itoa(width) + "-lane segment"
	if width == 32 {
		how = "a 32-lane logical warp"
		if p.t.wave.wide {
			w, how = "", "the whole wavefront"
		}
	}
	if !p.assign(args[0], ptxType{'b', 32}, fn+"("+a+", "+b+w+")") {
		return false
	}
	p.what = append(p.what, "shfl."+strings.Join(quals, ".")+" is "+fn+"() within "+how)
	return true
}

// asyncCopy rewrites Ampere's asynchronous copies from global to shared
// memory as copies made when issued: their groups are then complete
// before anything waits for them.
func (p *ptxAsm) asyncCopy(quals []string, args []string) bool {
	if len(quals) < 2 || quals[0] != "async" {
		return false
	}
	switch strings.Join(quals[1:], ".") {
	case "commit_group", "wait_all":
		if len(args) != 0 {
			return false
		}
		p.effect("(void)0")
		p.what = append(p.what, "cp.async."+quals[1]+" has nothing to wait for")
		return true
	case "wait_group":
		if len(args) != 1 {
			return false
		}
		p.effect("(void)0")
		p.what = append(p.what, "cp.async.wait_group has nothing to wait for")
		return true
	}
	cache := quals[1]
	if cache != "ca" && cache != "cg" {
		return false
	}
	rest := quals[2:]
	if len(rest) < 2 || rest[0] != "shared" && rest[0] != "shared::cta" || rest[1] != "global" {
		return false
	}
	for _, q := range rest[2:] {
		if q != "L2::64B" && q != "L2::128B" && q != "L2::256B" {
			return false
		}
	}
	if len(args) != 3 && len(args) != 4 {
		return false
	}
	dst, ok1 := p.address(args[0], false, "shared")
	src, ok2 := p.address(args[1], true, "")
	size, ok3 := p.read(args[2], ptxType{'u', 32})
	if !ok1 || !ok2 || !ok3 {
		return false
	}
	from := size
	if len(args) == 4 {
		var ok bool
		if from, ok = p.read(args[3], ptxType{'u', 32}); !ok {
			return false
		}
	}
	h := p.helper("hipgen_ptx_cp_async")
	p.effect(h + "((void*)" + dst + ", (const void*)" + src + ", " + size + ", " + from + ")")
	p.what = append(p.what, "cp.async."+strings.Join(quals[1:], ".")+" is "+h+"(), a copy made when issued")
	return true
}

// ptxPolyfills adds the definitions that rewritten PTX calls to the
// polyfills m.
func ptxPolyfills(m map[string]polyfill) {
	add := func(name, why, code string, deps ...string) {
		m["asm:"+name] = polyfill{name: name, why: why, code: code, deps: deps}
	}
	add(ptxCode, "what an asm statement does, without the asm", "#define "+ptxCode+"(code, ...) code")
	add("hipgen_ptx_cp_async", "PTX's cp.async", `__device__ __forceinline__ void hipgen_ptx_cp_async(void* dst, const void* src, unsigned int size, unsigned int from) {
  unsigned char* d = (unsigned char*)dst;
  const unsigned char* s = (const unsigned char*)src;
  if (from >= size) {
    __builtin_memcpy(d, s, size);
    return;
  }
  for (unsigned int i = 0; i < size; i++) d[i] = i < from ? s[i] : 0;
}`)
	for _, n := range []int{2, 4} {
		v, N := "v"+strconv.Itoa(n), strconv.Itoa(n)
		var refs, vals, gets, sets []string
		for i := 0; i < n; i++ {
			c := string(rune('a' + i))
			refs = append(refs, strings.ToUpper(c)+"& "+c)
			vals = append(vals, strings.ToUpper(c)+" "+c)
			gets = append(gets, "  "+c+" = x.e["+strconv.Itoa(i)+"];\n")
			sets = append(sets, "  x.e["+strconv.Itoa(i)+"] = (T)"+c+";\n")
		}
		params := "class T"
		for i := 0; i < n; i++ {
			params += ", class " + string(rune('A'+i))
		}
		vec := "  struct __attribute__((aligned(" + N + " * sizeof(T)))) " + v + " { T e[" + N + "]; };\n"
		add("hipgen_ptx_ld_"+v, "a PTX vector load", "template <"+params+">\n__device__ __forceinline__ void hipgen_ptx_ld_"+v+"(const void* p, "+strings.Join(refs, ", ")+") {\n"+
			vec+"  const "+v+" x = *(const "+v+"*)p;\n"+strings.Join(gets, "")+"}")
		add("hipgen_ptx_st_"+v, "a PTX vector store", "template <"+params+">\n__device__ __forceinline__ void hipgen_ptx_st_"+v+"(void* p, "+strings.Join(vals, ", ")+") {\n"+
			vec+"  "+v+" x;\n"+strings.Join(sets, "")+"  *("+v+"*)p = x;\n}")
	}
	for _, w := range []int{32, 64} {
		W := strconv.Itoa(w)
		U, S, one, clz := "unsigned int", "int", "1u", "__builtin_clz"
		if w == 64 {
			U, S, one, clz = "unsigned long long", "long long", "1ull", "__builtin_clzll"
		}
		mask := "(n == " + W + "u ? ~(" + U + ")0 : (" + one + " << n) - " + one + ")"
		// The ISA takes the low eight bits of the position and the
		// length; the 64-bit forms, which ptxas emulates, take all 32 on
		// the GPUs this was checked on (sm_80 and sm_90 with nvcc 13.0,
		// conformance/testdata/ptx_instructions.cu), and the helpers do
		// what the GPU does.
		fields := func(p, l string) string {
			if w == 64 {
				return "  unsigned int pos = " + p + ", len = " + l + ";\n"
			}
			return "  unsigned int pos = " + p + " & 0xffu, len = " + l + " & 0xffu;\n"
		}
		width := "  unsigned int n = len < " + W + "u - pos ? len : " + W + "u - pos;\n"
		add("hipgen_ptx_bfe_u"+W, "PTX's bfe", "__device__ __forceinline__ "+U+" hipgen_ptx_bfe_u"+W+"("+U+" a, unsigned int b, unsigned int c) {\n"+
			fields("b", "c")+
			"  if (len == 0u || pos > "+W+"u - 1u) return 0;\n"+
			width+
			"  return (a >> pos) & "+mask+";\n}")
		add("hipgen_ptx_bfe_s"+W, "PTX's bfe", "__device__ __forceinline__ "+S+" hipgen_ptx_bfe_s"+W+"("+S+" a, unsigned int b, unsigned int c) {\n"+
			fields("b", "c")+
			"  "+U+" u = ("+U+")a;\n"+
			"  if (len == 0u) return 0;\n"+
			"  unsigned int top = pos > "+W+"u - 1u || len - 1u > "+W+"u - 1u - pos ? "+W+"u - 1u : pos + len - 1u;\n"+
			"  unsigned int n = pos > "+W+"u - 1u ? 0u : (len < "+W+"u - pos ? len : "+W+"u - pos);\n"+
			"  "+U+" v = n == 0u ? 0 : (u >> pos) & "+mask+";\n"+
			"  if (((u >> top) & 1u) && n < "+W+"u) v |= ~("+U+")0 << n;\n"+
			"  return ("+S+")v;\n}")
		add("hipgen_ptx_bfi_b"+W, "PTX's bfi", "__device__ __forceinline__ "+U+" hipgen_ptx_bfi_b"+W+"("+U+" a, "+U+" b, unsigned int c, unsigned int d) {\n"+
			fields("c", "d")+
			"  if (len == 0u || pos > "+W+"u - 1u) return b;\n"+
			width+
			"  "+U+" m = "+mask+" << pos;\n"+
			"  return (b & ~m) | ((a << pos) & m);\n}")
		for _, signed := range []bool{false, true} {
			k, T, x := "u", U, "a"
			if signed {
				k, T, x = "s", S, "a < 0 ? ~("+U+")a : ("+U+")a"
			}
			add("hipgen_ptx_bfind_"+k+W, "PTX's bfind", "__device__ __forceinline__ unsigned int hipgen_ptx_bfind_"+k+W+"("+T+" a) {\n"+
				"  "+U+" x = "+x+";\n"+
				"  return x == 0 ? 0xffffffffu : "+W+"u - 1u - (unsigned int)"+clz+"(x);\n}")
			add("hipgen_ptx_bfind_"+k+W+"_shiftamt", "PTX's bfind.shiftamt", "__device__ __forceinline__ unsigned int hipgen_ptx_bfind_"+k+W+"_shiftamt("+T+" a) {\n"+
				"  "+U+" x = "+x+";\n"+
				"  return x == 0 ? 0xffffffffu : (unsigned int)"+clz+"(x);\n}")
		}
		add("hipgen_ptx_clz_b"+W, "PTX's clz", "__device__ __forceinline__ unsigned int hipgen_ptx_clz_b"+W+"("+U+" a) { return a == 0 ? "+W+"u : (unsigned int)"+clz+"(a); }")
	}
	add("hipgen_ptx_prmt", "PTX's prmt", `__device__ __forceinline__ unsigned int hipgen_ptx_prmt(unsigned int a, unsigned int b, unsigned int c) {
  unsigned long long t = ((unsigned long long)b << 32) | a;
  unsigned int d = 0u;
  for (int n = 0; n < 4; n++) {
    unsigned int s = (c >> (4 * n)) & 0xfu;
    unsigned int v = (unsigned int)(t >> (8 * (s & 7u))) & 0xffu;
    if (s & 8u) v = (v & 0x80u) ? 0xffu : 0u;
    d |= v << (8 * n);
  }
  return d;
}`)
	add("hipgen_ptx_lop3", "PTX's lop3", `__device__ __forceinline__ unsigned int hipgen_ptx_lop3(unsigned int a, unsigned int b, unsigned int c, unsigned int lut) {
  unsigned int d = 0u;
  if (lut & 0x01u) d |= ~a & ~b & ~c;
  if (lut & 0x02u) d |= ~a & ~b & c;
  if (lut & 0x04u) d |= ~a & b & ~c;
  if (lut & 0x08u) d |= ~a & b & c;
  if (lut & 0x10u) d |= a & ~b & ~c;
  if (lut & 0x20u) d |= a & ~b & c;
  if (lut & 0x40u) d |= a & b & ~c;
  if (lut & 0x80u) d |= a & b & c;
  return d;
}`)
	add("hipgen_ptx_cvt_f32_f16", "PTX's cvt.f32.f16", `__device__ __forceinline__ float hipgen_ptx_cvt_f32_f16(unsigned short h) {
  _Float16 f;
  __builtin_memcpy(&f, &h, sizeof f);
  return (float)f;
}`)
	add("hipgen_ptx_cvt_rn_f16_f32", "PTX's cvt.rn.f16.f32", `__device__ __forceinline__ unsigned short hipgen_ptx_cvt_rn_f16_f32(float x) {
  _Float16 f = (_Float16)x;
  unsigned short h;
  __builtin_memcpy(&h, &f, sizeof h);
  return h;
}`)
	add("hipgen_ptx_cvt_rn_f16x2_f32", "PTX's cvt.rn.f16x2.f32", `__device__ __forceinline__ unsigned int hipgen_ptx_cvt_rn_f16x2_f32(float a, float b) {
  return (unsigned int)hipgen_ptx_cvt_rn_f16_f32(a) << 16 | hipgen_ptx_cvt_rn_f16_f32(b);
}`, "asm:hipgen_ptx_cvt_rn_f16_f32")
	for _, f := range [][2]string{{"ex2", "exp2f"}, {"tanh", "tanhf"}} {
		add("hipgen_ptx_"+f[0]+"_f16", "PTX's "+f[0]+".approx.f16", "__device__ __forceinline__ unsigned short hipgen_ptx_"+f[0]+"_f16(unsigned short a) {\n"+
			"  return hipgen_ptx_cvt_rn_f16_f32("+f[1]+"(hipgen_ptx_cvt_f32_f16(a)));\n}", "asm:hipgen_ptx_cvt_rn_f16_f32", "asm:hipgen_ptx_cvt_f32_f16")
		add("hipgen_ptx_"+f[0]+"_f16x2", "PTX's "+f[0]+".approx.f16x2", "__device__ __forceinline__ unsigned int hipgen_ptx_"+f[0]+"_f16x2(unsigned int a) {\n"+
			"  return (unsigned int)hipgen_ptx_"+f[0]+"_f16((unsigned short)(a >> 16)) << 16 | hipgen_ptx_"+f[0]+"_f16((unsigned short)a);\n}", "asm:hipgen_ptx_"+f[0]+"_f16")
	}
}
