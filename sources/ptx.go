package sources

import (
	"slices"
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

// ptxCarry names the variable that holds the carry flag of the add.cc,
// addc, sub.cc, subc, mad.cc and madc instructions of an asm statement.
const ptxCarry = "hipgen_ptx_cf"

// ptxPrefixMax is the most bytes ptxInstructions writes before an asm
// statement (a carry chain over four words with its registers takes some
// 2,000); wrappedPTX looks that many tokens back.
const ptxPrefixMax = 4096

// ptxCodeKey is hipgen_ptx_code's key among the polyfills.
const ptxCodeKey = "asm:" + ptxCode

// asmOperand is one operand of an extended asm statement: its constraint
// without modifiers ('r', 'l', 'h', 'f', 'd' or 'n'), whether it is an
// output ("=") or both ("+"), and its expression's tokens.
type asmOperand struct {
	class       byte
	out, inout  bool
	first, last int
	uses        int  // how often the rewrite names it
	written     bool // an instruction of the template wrote it
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
	epoch    int      // instructions so far that emitted code
	marks    []string // the operands' copySpan marks, made when first used
	// carry: an instruction reads or writes the carry flag, which the
	// code keeps in a variable of its own (see ptxCarry).
	carry bool
	// materialize: the template's registers are variables of the
	// statement (see ptxInstructions), in the order of vars.
	materialize bool
	vars        []*ptxReg
}

// ptxReg is a register an asm template declares.
type ptxReg struct {
	name  string // its variable's, when registers are variables
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
			if k := t.tok(j).Kind; k == lex.String || k == lex.Char {
				return "", nil, false // no operand a rewrite takes holds one; copied unterminated, it would swallow the rest of the line
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
// escapes decoded (\n and \r as line ends, \t as a space, which is all
// they are to ptxas here); other escapes, a prefix or a raw string give ok
// false.
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
		case 'n', 'r':
			b.WriteByte('\n')
		case 't':
			b.WriteByte(' ')
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
// it did, and if not, the statement of the template it has no HIP form
// for (see ptxStatement), or "" when it stopped at something else.
func (t *translator) ptxInstructions(k, open, close int) (ok bool, refused string) {
	tmpl, ops, ok := t.parseAsmOperands(open, close)
	if !ok {
		return false, ""
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
	tmpl, ok = stripPTXComments(tmpl)
	if !ok {
		return false, ""
	}
	tmpl = strings.TrimSpace(tmpl)
	if inner, ok := scopeBody(tmpl); ok {
		// A scope around the instructions changes nothing: the
		// registers it declares are the template's own.
		tmpl = inner
	}
	// The template's registers stand for the expressions written to
	// them; where that cannot follow the template (a register read after
	// an operand its value reads was written, a carry into a register, a
	// register written under a predicate), they are variables of a
	// statement expression instead.
	p, _ := t.ptxRewrite(tmpl, ops, false)
	if p == nil {
		if p, refused = t.ptxRewrite(tmpl, ops, true); p == nil {
			return false, refused
		}
	}
	start := int(t.tok(k).Start)
	var prefix string
	single := len(p.code) == 1 && p.single.value != "" && !p.carry
	if single {
		prefix = ptxValue + "(" + p.span(p.single.op) + ", " + p.single.value + ", "
		t.notePolyfill(ptxValueKey, start)
	} else {
		code := p.code[0]
		switch {
		case p.carry || p.materialize:
			// The carry flag and the registers are variables of the
			// statement's, in a statement expression (clang's and
			// GCC's), clear at its start: PTX keeps nothing from one
			// asm statement to the next.
			var decls strings.Builder
			decls.WriteString("({ ")
			if p.carry {
				decls.WriteString("unsigned int " + ptxCarry + " = 0u; ")
			}
			for _, r := range p.vars {
				if r.pred {
					decls.WriteString("bool " + r.name + " = false; ")
				} else {
					decls.WriteString(r.typ.cType() + " " + r.name + " = 0; ")
				}
			}
			code = decls.String() + strings.Join(p.code, "; ") + "; })"
		case len(p.code) > 1:
			code = "(" + strings.Join(p.code, ", ") + ")"
		}
		prefix = ptxCode + "(" + code + ", "
		t.notePolyfill(ptxCodeKey, start)
	}
	// What goes before the asm stays within wrappedPTX's reach, which
	// tells a translation's own rewrite when it is translated again.
	if len(prefix) > ptxPrefixMax {
		return false, ""
	}
	t.insert(start, prefix)
	t.insert(int(t.tok(close).End), ")")
	for _, key := range p.keys {
		t.notePolyfill(key, start)
	}
	t.needRuntime = true
	macro := ptxCode
	if single {
		macro = ptxValue
	}
	// Each thing said once: templates repeat an instruction.
	var what []string
	for _, w := range p.what {
		if !slices.Contains(what, w) {
			what = append(what, w)
		}
	}
	t.report(k, diag.Note, "inline-asm", "inline PTX became "+macro+"(..., asm(...)), which HIP computes without assembly: "+strings.Join(what, "; ")+"; the asm is kept as the macro's last argument, which is not compiled")
	return true, ""
}

// ptxRewrite rewrites each instruction of the template tmpl, whose
// operands are ops, with the template's registers as expressions or, if
// materialize, as variables. It returns nil when it cannot, with the
// statement it has no HIP form for, if that is why.
func (t *translator) ptxRewrite(tmpl string, ops []asmOperand, materialize bool) (p *ptxAsm, refused string) {
	p = &ptxAsm{t: t, ops: slices.Clone(ops), materialize: materialize}
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
			return nil, ptxStatement(stmt)
		}
	}
	if n == 0 || len(p.code) == 0 {
		return nil, "" // no instruction, or only registers written
	}
	// An operand named more than once (an input and output at once, "+r",
	// or one used by two instructions) is evaluated more than once: only
	// an expression without side effects may be.
	// One the rewrite drops (an input the template never names) is not
	// evaluated at all: only one without side effects may be.
	for _, op := range p.ops {
		if op.uses != 1 && !t.sideEffectFree(op.first, op.last) {
			return nil, ""
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
					return nil, ""
				}
			}
		}
	}
	return p, ""
}

// ptxStatement returns the PTX statement stmt as a diagnostic quotes it:
// blanks made single, cut after 60 bytes.
func ptxStatement(stmt string) string {
	stmt = strings.Join(strings.Fields(stmt), " ")
	if len(stmt) > 60 {
		stmt = strings.TrimSpace(stmt[:60]) + "..."
	}
	return stmt
}

// stripPTXComments returns the template s without its comments, // to the
// end of the line and /* to */, each a blank; ok false for a comment that
// does not end.
func stripPTXComments(s string) (string, bool) {
	if !strings.Contains(s, "/") {
		return s, true
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "/")
		if i < 0 || i+1 >= len(s) {
			b.WriteString(s)
			return b.String(), true
		}
		b.WriteString(s[:i])
		switch s[i+1] {
		case '/':
			end := strings.IndexByte(s[i:], '\n')
			if end < 0 {
				return b.String(), true
			}
			s = s[i+end:]
		case '*':
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				return "", false
			}
			b.WriteByte(' ')
			s = s[i+2+end+2:]
		default:
			b.WriteByte('/')
			s = s[i+1:]
		}
	}
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

// float reports whether p is f32 or f64 (f16 values are moved as bits).
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

// span stands for the operand n's expression in the code: what the
// translation makes of it (see copySpan).
func (p *ptxAsm) span(n int) string {
	if p.marks == nil {
		p.marks = make([]string, len(p.ops))
	}
	if p.marks[n] == "" {
		op := p.ops[n]
		p.marks[n] = p.t.copySpan(int(p.t.tok(op.first).Start), int(p.t.tok(op.last).End))
	}
	return p.marks[n]
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
	if op.out && !op.inout && !op.written {
		return "", false // PTX would read what the statement has not written
	}
	if op.out {
		p.impure = true // code emitted since may have written it
	}
	op.uses++
	p.refs = append(p.refs, n)
	e := p.span(n)
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
	if r.reads > 0 && !r.pure {
		return "", false
	}
	p.countRead(r)
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
	if p.materialize {
		return true, p.toVariable(r, strings.TrimSpace(s), value)
	}
	p.give(r, value)
	p.wroteReg = true
	return true, true
}

// toVariable writes value to the variable of the register r, named s in the
// template, when registers are variables: what reads it later reads the
// variable, whatever was written since.
func (p *ptxAsm) toVariable(r *ptxReg, s, value string) bool {
	if r.name == "" {
		if strings.HasPrefix(s, "%") {
			r.name = "hipgen_ptx_in" + s[1:]
		} else if strings.Contains(s, "$") {
			return false
		} else {
			r.name = "hipgen_ptx_r_" + s
		}
		p.vars = append(p.vars, r)
		if len(p.vars) == 1 {
			p.what = append(p.what, "its registers are variables of a statement expression")
		}
	}
	p.code = append(p.code, "("+r.name+" = "+value+")")
	p.single.value = ""
	r.value, r.pure, r.epoch, r.reads, r.ops = r.name, true, p.epoch, 0, nil
	return true
}

// give makes value, which the instruction being rewritten computes, the
// register r's: what it reads (p.refs, p.impure) goes with it.
func (p *ptxAsm) give(r *ptxReg, value string) {
	r.value, r.pure, r.epoch, r.reads = value, !p.impure, p.epoch, 0
	r.ops = append([]int(nil), p.refs...)
}

// countRead counts a read of the register r: its value's expression is
// written once more, so each read after the first evaluates its operands
// again.
func (p *ptxAsm) countRead(r *ptxReg) {
	if r.reads++; r.reads > 1 {
		for _, n := range r.ops {
			p.ops[n].uses++
		}
	}
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
	if name := strings.TrimSpace(s); p.regs[name] == nil {
		if n := p.operand(name); n >= 0 && !p.ops[n].out {
			// An input the template writes is a register of its own
			// from then on, as ptxas makes it: the C++ operand keeps
			// its value.
			typ, ok := operandType(p.ops[n].class)
			if !ok {
				return false
			}
			if p.regs == nil {
				p.regs = map[string]*ptxReg{}
			}
			p.regs[name] = &ptxReg{typ: typ}
			p.what = append(p.what, "the input "+name+" it writes is a copy of the C++ operand")
		}
	}
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
	p.code = append(p.code, "(("+p.span(n)+") = ("+v+"))")
	p.ops[n].written = true
	return true
}

// operandType is the PTX type of a register operand of the constraint
// class c.
func operandType(c byte) (ptxType, bool) {
	if c == 'n' {
		return ptxType{}, false // an immediate: nothing to write
	}
	return elementType(c, ptxType{'u', classBits(c)}), true
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
		p.countRead(r)
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
	case "mul", "mad", "madc":
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
	case "selp":
		return p.choose(quals, args)
	case "min", "max":
		return p.minmax(name, quals, args)
	case "add", "sub", "addc", "subc", "and", "or", "xor", "not":
		return p.logic(name, quals, args)
	case "shl", "shr":
		return p.shift(name, quals, args)
	case "shf":
		return p.funnel(quals, args)
	case "vshl", "vshr":
		return p.videoShift(name, quals, args)
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
		e = "(" + p.span(n) + ")"
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
