package sources

import (
	"strconv"
	"strings"
	"sync"
)

// The PTX instructions ptxInstructions rewrites, a function per family.

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
	dsts, ok := vectorOperands(args[0], vec)
	if !ok {
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
		refs = append(refs, p.span(n))
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

// vectorOperands splits a vector operand, {a, b} or {a, b, c, d}, into
// its n parts.
func vectorOperands(arg string, n int) ([]string, bool) {
	if arg[0] != '{' || arg[len(arg)-1] != '}' {
		return nil, false
	}
	parts := splitOperands(arg[1 : len(arg)-1])
	return parts, len(parts) == n
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
	srcs, ok := vectorOperands(args[1], vec)
	if !ok {
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

// multiply rewrites mul and mad of integers: .lo, .hi and .wide, and
// mad.cc and madc, which add with the carry flag (see carried).
func (p *ptxAsm) multiply(name string, quals []string, args []string) bool {
	inst := name + "." + strings.Join(quals, ".")
	carryIn := name == "madc"
	carryOut := len(quals) == 3 && quals[1] == "cc" && name != "mul"
	if carryOut {
		quals = []string{quals[0], quals[2]}
	}
	if len(quals) != 2 {
		return false
	}
	typ, ok := parsePTXType(quals[1])
	if !ok || typ.kind == 'f' || typ.kind == 'b' || typ.bits < 16 {
		return false
	}
	want := 3
	if name != "mul" {
		want = 4
	}
	if len(args) != want {
		return false
	}
	if carryIn || carryOut {
		if typ.bits < 32 || quals[0] != "lo" && quals[0] != "hi" {
			return false
		}
		u := typ.bitsType()
		a, ok1 := p.read(args[1], typ)
		b, ok2 := p.read(args[2], typ)
		c, ok3 := p.read(args[3], u)
		if !ok1 || !ok2 || !ok3 {
			return false
		}
		prod := "(" + u.cType() + ")((" + u.cType() + ")" + a + " * (" + u.cType() + ")" + b + ")"
		if quals[0] == "hi" {
			prod = "(" + u.cType() + ")" + mulHi[typ] + "(" + a + ", " + b + ")"
		}
		return p.carried("add", inst, args[0], u, prod, c, carryIn, carryOut)
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
		if typ.bits < 32 {
			return false
		}
		a, ok1 := p.read(args[1], typ)
		b, ok2 := p.read(args[2], typ)
		if !ok1 || !ok2 {
			return false
		}
		fn := mulHi[typ]
		value, result, how = fn+"("+a+", "+b+")", typ, fn+"()"
		if name == "mad" {
			u := typ.bitsType()
			c, ok := p.read(args[3], u)
			if !ok {
				return false
			}
			value = "(" + typ.cType() + ")((" + u.cType() + ")" + value + " + " + c + ")"
			how += " and an addition"
		}
	default:
		return false
	}
	if !p.assign(args[0], result, value) {
		return false
	}
	p.what = append(p.what, name+"."+strings.Join(quals, ".")+" is "+how)
	return true
}

// mulHi are HIP's functions for the high half of a product.
var mulHi = map[ptxType]string{{'u', 32}: "__umulhi", {'s', 32}: "__mulhi", {'u', 64}: "__umul64hi", {'s', 64}: "__mul64hi"}

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
	// The operation, and the other qualifiers, in any order: PTX puts
	// the operation after the semantics, scope and space, and ptxas also
	// takes it first ("atom.add.release.gpu.global.s32").
	var opname, order, space string
	system := false
	for _, q := range quals[:len(quals)-1] {
		switch q {
		case "global", "relaxed", "gpu", "cta":
		case "sys":
			system = true
		case "shared", "shared::cta":
			space = "shared"
		case "acquire", "release", "acq_rel":
			order = "__ATOMIC_" + strings.ToUpper(q)
		case "add", "min", "max", "and", "or", "xor", "exch", "cas", "inc", "dec":
			if opname != "" {
				return false
			}
			opname = q
		default:
			return false
		}
	}
	if order != "" {
		return p.orderedAtomic(name, quals, typ, opname, order, space, args)
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
	addr, vals, ok := p.atomicOperands(name, opname, ct, space, args)
	if !ok || !p.atomicResult(name, args, ct, fn+"(("+ct.cType()+"*)"+addr+", "+strings.Join(vals, ", ")+")") {
		return false
	}
	p.what = append(p.what, name+"."+strings.Join(quals, ".")+" is "+fn+"()")
	return true
}

// atomicOperands reads the operands of atom or red (name) of the
// operation opname on values of type ct: the address, in space, and the
// values after it (two for cas, which red does not have).
func (p *ptxAsm) atomicOperands(name, opname string, ct ptxType, space string, args []string) (addr string, vals []string, ok bool) {
	first := 1
	if name == "red" {
		first = 0
	}
	want := first + 2
	if opname == "cas" {
		if name == "red" {
			return "", nil, false
		}
		want++
	}
	if len(args) != want {
		return "", nil, false
	}
	p.impure = true
	if addr, ok = p.address(args[first], false, space); !ok {
		return "", nil, false
	}
	for _, a := range args[first+1:] {
		v, ok := p.read(a, ct)
		if !ok {
			return "", nil, false
		}
		vals = append(vals, v)
	}
	return addr, vals, true
}

// atomicResult gives call, the atomic operation of atom or red (name), its
// place: atom's destination gets the old value, red's is dropped.
func (p *ptxAsm) atomicResult(name string, args []string, ct ptxType, call string) bool {
	if name == "red" {
		p.effect("(void)" + call)
		return true
	}
	return p.assign(args[0], ct, call)
}

// orderedAtomic rewrites atom and red with a memory order (acquire,
// release, acq_rel) with the __atomic builtins that GCC and clang share,
// as load and store do: the integer operations they have (add, and, or,
// xor, exchange, compare-and-swap), at system scope, which is at least as
// strong as PTX's. Float additions and min or max keep the asm (no
// __atomic builtin of both compilers takes them).
func (p *ptxAsm) orderedAtomic(name string, quals []string, typ ptxType, opname, order, space string, args []string) bool {
	var ct ptxType
	switch {
	case opname == "add" && (typ.kind == 'u' || typ.kind == 's') && typ.bits >= 32:
		ct = typ
	case (opname == "and" || opname == "or" || opname == "xor" || opname == "exch" || opname == "cas") && typ.kind == 'b' && typ.bits >= 32:
		ct = typ.bitsType()
	default:
		return false
	}
	addr, vals, ok := p.atomicOperands(name, opname, ct, space, args)
	if !ok {
		return false
	}
	ptr := "(" + ct.cType() + "*)" + addr
	var call string
	switch opname {
	case "cas":
		// The old value, which the builtin leaves in expected; a failed
		// exchange reads with the order's acquiring half.
		fail := map[string]string{"__ATOMIC_ACQUIRE": "__ATOMIC_ACQUIRE", "__ATOMIC_RELEASE": "__ATOMIC_RELAXED", "__ATOMIC_ACQ_REL": "__ATOMIC_ACQUIRE"}[order]
		call = "({ " + ct.cType() + " hipgen_expected = " + vals[0] + "; __atomic_compare_exchange_n(" + ptr + ", &hipgen_expected, " + vals[1] + ", false, " + order + ", " + fail + "); hipgen_expected; })"
	case "exch":
		call = "__atomic_exchange_n(" + ptr + ", " + vals[0] + ", " + order + ")"
	default:
		call = "__atomic_fetch_" + opname + "(" + ptr + ", " + vals[0] + ", " + order + ")"
	}
	if !p.atomicResult(name, args, ct, call) {
		return false
	}
	what := opname
	switch opname {
	case "cas":
		what = "compare-and-swap"
	case "exch":
		what = "exchange"
	}
	p.what = append(p.what, name+"."+strings.Join(quals, ".")+" is an atomic "+what+" "+orderWords(order))
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
	if args[0][0] == '{' || args[1][0] == '{' {
		return p.moveParts(typ, args)
	}
	v, ok := p.read(args[1], typ)
	if !ok || !p.assign(args[0], typ, v) {
		return false
	}
	p.what = append(p.what, "mov is an assignment")
	return true
}

// moveParts rewrites mov.b32 and mov.b64 that take a value apart into two
// or four parts, {lo, hi} or {a, b, c, d} lowest first, or put one
// together from them.
func (p *ptxAsm) moveParts(typ ptxType, args []string) bool {
	if typ.kind != 'b' || args[0][0] == '{' && args[1][0] == '{' {
		return false
	}
	vec := args[0]
	if vec[0] != '{' {
		vec = args[1]
	}
	if len(vec) < 2 || vec[len(vec)-1] != '}' {
		return false
	}
	parts := splitOperands(vec[1 : len(vec)-1])
	n := len(parts)
	if n != 2 && n != 4 || typ.bits/n < 16 {
		return false
	}
	u := typ.bitsType()
	part := ptxType{'u', typ.bits / n}
	if args[0][0] == '{' {
		// Every part reads the source before any is written.
		var vals []string
		for range parts {
			v, ok := p.read(args[1], u)
			if !ok {
				return false
			}
			vals = append(vals, v)
		}
		for i, d := range parts {
			if !p.assign(d, part, "("+part.cType()+")("+vals[i]+" >> "+strconv.Itoa(i*part.bits)+")") {
				return false
			}
		}
		p.what = append(p.what, "mov.b"+strconv.Itoa(typ.bits)+" into "+strconv.Itoa(n)+" parts is shifts")
		return true
	}
	var terms []string
	for i, s := range parts {
		v, ok := p.read(s, part)
		if !ok {
			return false
		}
		terms = append(terms, "(("+u.cType()+")"+v+" << "+strconv.Itoa(i*part.bits)+")")
	}
	if !p.assign(args[0], u, "("+strings.Join(terms, " | ")+")") {
		return false
	}
	p.what = append(p.what, "mov.b"+strconv.Itoa(typ.bits)+" of "+strconv.Itoa(n)+" parts is shifts")
	return true
}

// ptxCompare maps setp's comparisons to C++'s operators: the unsigned
// ones (lo, ls, hi, hs) for integers, the ordered ones for floats too,
// which C++'s comparisons are (ne is not: C++'s != holds for NaN).
var ptxCompare = sync.OnceValue(func() map[string]string {
	return map[string]string{"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">=",
		"lo": "<", "ls": "<=", "hi": ">", "hs": ">="}
})

// compare rewrites setp into a predicate register's condition.
func (p *ptxAsm) compare(quals []string, args []string) bool {
	if len(quals) != 2 || len(args) != 3 {
		return false
	}
	op := ptxCompare()[quals[0]]
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
	if p.materialize {
		if !p.toVariable(r, args[0], "("+a+" "+op+" "+b+")") {
			return false
		}
		p.what = append(p.what, "setp."+strings.Join(quals, ".")+" is a condition")
		return true
	}
	p.give(r, "("+a+" "+op+" "+b+")")
	if !r.pure {
		return false // a condition is evaluated where it guards
	}
	p.wroteReg = true
	p.what = append(p.what, "setp."+strings.Join(quals, ".")+" is a condition")
	return true
}

// choose rewrites selp, which picks one of two values by a predicate of
// the template's own.
func (p *ptxAsm) choose(quals []string, args []string) bool {
	if len(quals) != 1 || len(args) != 4 {
		return false
	}
	typ, ok := parsePTXType(quals[0])
	if !ok || typ.bits < 16 || typ.kind == 'f' && typ.bits == 16 {
		return false
	}
	r := p.regs[strings.TrimSpace(args[3])]
	if r == nil || !r.pred || r.value == "" {
		return false
	}
	p.countRead(r)
	p.refs = append(p.refs, r.ops...)
	a, ok1 := p.read(args[1], typ)
	b, ok2 := p.read(args[2], typ)
	if !ok1 || !ok2 || !p.assign(args[0], typ, "("+r.value+" ? "+a+" : "+b+")") {
		return false
	}
	p.what = append(p.what, "selp."+quals[0]+" is a conditional expression")
	return true
}

// minmax rewrites min and max of integers with hipgen_ptx_min and
// hipgen_ptx_max, which compare in the instruction's type.
func (p *ptxAsm) minmax(name string, quals []string, args []string) bool {
	if len(quals) != 1 || len(args) != 3 {
		return false // .relu, .NaN, .f16x2
	}
	typ, ok := parsePTXType(quals[0])
	if !ok || typ.bits < 16 || typ.kind == 'f' || typ.kind == 'b' {
		return false
	}
	a, ok1 := p.read(args[1], typ)
	b, ok2 := p.read(args[2], typ)
	h := p.helper("hipgen_ptx_" + name)
	if !ok1 || !ok2 || !p.assign(args[0], typ, h+"<"+typ.cType()+">("+a+", "+b+")") {
		return false
	}
	p.what = append(p.what, name+"."+quals[0]+" is "+h+"()")
	return true
}

// logic rewrites add, sub, and, or, xor and not of integers, in unsigned
// arithmetic, which wraps as PTX's does, and the carries: add.cc, addc,
// sub.cc and subc (see carried).
func (p *ptxAsm) logic(name string, quals []string, args []string) bool {
	inst := name + "." + strings.Join(quals, ".")
	carryIn := name == "addc" || name == "subc"
	carryOut := len(quals) == 2 && quals[0] == "cc" && (name == "add" || name == "sub" || carryIn)
	if carryOut {
		quals = quals[1:]
	}
	if len(quals) != 1 {
		return false // .sat: saturation
	}
	typ, ok := parsePTXType(quals[0])
	if !ok || typ.kind == 'f' || typ.bits < 32 {
		return false
	}
	if carryIn || carryOut {
		if typ.kind == 'b' || len(args) != 3 {
			return false
		}
		u := typ.bitsType()
		a, ok1 := p.read(args[1], u)
		b, ok2 := p.read(args[2], u)
		if !ok1 || !ok2 {
			return false
		}
		return p.carried(strings.TrimSuffix(name, "c"), inst, args[0], u, a, b, carryIn, carryOut)
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

// carried records an addition or subtraction (op "add" or "sub") of a
// and b, of the unsigned type u, that reads the carry flag (in) or writes
// it (out): hipgen_ptx_addc_u32 and its kin compute it, the flag in the
// statement's variable ptxCarry. Its result goes to an output, or to a
// register of the template only when registers are variables: one that
// stands for an expression would change the flag where it is read.
func (p *ptxAsm) carried(op, inst, dst string, u ptxType, a, b string, in, out bool) bool {
	d := strings.TrimSpace(dst)
	n := p.operand(d)
	switch {
	case p.regs[d] != nil || n >= 0 && !p.ops[n].out:
		// A register, or an input the template writes, which then is
		// one: only as a variable.
		if !p.materialize {
			return false
		}
	case n < 0:
		return false
	}
	h := p.helper("hipgen_ptx_" + op + "c_u" + strconv.Itoa(u.bits))
	p.carry = true
	if !p.assign(dst, u, h+"("+a+", "+b+", &"+ptxCarry+", "+strconv.FormatBool(in)+", "+strconv.FormatBool(out)+")") {
		return false
	}
	p.what = append(p.what, inst+" is "+h+"()", "the carry flag is a variable of the statement's")
	return true
}

// shift rewrites shl and shr: an amount past the width gives what PTX
// gives (zero, or the sign for shr.s), where C++'s shift is undefined.
func (p *ptxAsm) shift(name string, quals []string, args []string) bool {
	if len(quals) != 1 || len(args) != 3 {
		return false
	}
	typ, ok := parsePTXType(quals[0])
	if !ok || typ.kind == 'f' || typ.bits < 16 || name == "shl" && typ.kind != 'b' {
		return false
	}
	if typ.kind == 'b' {
		typ = typ.bitsType()
	}
	a, ok1 := p.read(args[1], typ)
	n, ok2 := p.read(args[2], ptxType{'u', 32})
	if !ok1 || !ok2 {
		return false
	}
	h := p.helper("hipgen_ptx_" + name)
	if !p.assign(args[0], typ, h+"<"+typ.cType()+">("+a+", "+n+")") {
		return false
	}
	p.what = append(p.what, name+"."+quals[0]+" is "+h+"()")
	return true
}

// funnel rewrites shf, the funnel shift of two 32-bit values.
func (p *ptxAsm) funnel(quals []string, args []string) bool {
	if len(quals) != 3 || quals[2] != "b32" || len(args) != 4 ||
		quals[0] != "l" && quals[0] != "r" || quals[1] != "wrap" && quals[1] != "clamp" {
		return false
	}
	u32 := ptxType{'u', 32}
	var vals []string
	for _, a := range args[1:] {
		v, ok := p.read(a, u32)
		if !ok {
			return false
		}
		vals = append(vals, v)
	}
	h := p.helper("hipgen_ptx_shf_" + quals[0] + "_" + quals[1])
	if !p.assign(args[0], u32, h+"("+strings.Join(vals, ", ")+")") {
		return false
	}
	p.what = append(p.what, "shf."+strings.Join(quals, ".")+" is "+h+"()")
	return true
}

// videoShift rewrites the scalar video shifts of unsigned words, vshl and
// vshr .u32.u32.u32 with .clamp or .wrap, alone or with the secondary
// .add: the amount is clamped to 32 or taken modulo 32, and the sum keeps
// the low 32 bits, which a wider intermediate does not change. Selectors
// of bytes and halves, signed types, .sat, .min and .max are left alone.
func (p *ptxAsm) videoShift(name string, quals []string, args []string) bool {
	if len(quals) < 4 || len(quals) > 5 || quals[0] != "u32" || quals[1] != "u32" || quals[2] != "u32" ||
		quals[3] != "clamp" && quals[3] != "wrap" || len(quals) == 5 && quals[4] != "add" {
		return false
	}
	add := len(quals) == 5
	if add && len(args) != 4 || !add && len(args) != 3 {
		return false
	}
	u32 := ptxType{'u', 32}
	a, ok1 := p.read(args[1], u32)
	b, ok2 := p.read(args[2], u32)
	if !ok1 || !ok2 {
		return false
	}
	h := p.helper("hipgen_ptx_shf_" + name[len(name)-1:] + "_" + quals[3]) // vshl: shf_l, vshr: shf_r
	// A funnel shift of a with zeros, the shifted half the one kept.
	value := h + "(0u, " + a + ", " + b + ")"
	if name == "vshr" {
		value = h + "(" + a + ", 0u, " + b + ")"
	}
	if add {
		c, ok := p.read(args[3], u32)
		if !ok {
			return false
		}
		value = "(unsigned int)(" + value + " + " + c + ")"
	}
	if !p.assign(args[0], u32, value) {
		return false
	}
	p.what = append(p.what, name+"."+strings.Join(quals, ".")+" is "+h+"() of zeros and the value")
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
		a = "(" + p.span(n) + ")"
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
		n := p.operand(m)
		if !immediate(m) && (n < 0 || p.ops[n].out) {
			return false
		}
		if n >= 0 {
			p.ops[n].uses++ // dropped, whatever it is (__activemask())
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
