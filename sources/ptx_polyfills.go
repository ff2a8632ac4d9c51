package sources

import (
	"strconv"
	"strings"
)

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
		// The carry flag: the carry out of the top bit. A subtraction
		// adds the complement, a + ~b + 1, and subc a + ~b + CF: its
		// flag is 1 when nothing is borrowed, as the GPU has it (an
		// addc after a subc.cc adds it; checked on H200 by
		// conformance/testdata/ptx_arithmetic.cu).
		add("hipgen_ptx_addc_u"+W, "PTX's add.cc, addc, mad.cc and madc", "__device__ __forceinline__ "+U+" hipgen_ptx_addc_u"+W+"("+U+" a, "+U+" b, unsigned int* cf, bool in, bool out) {\n"+
			"  "+U+" s = a + b;\n"+
			"  unsigned int c = s < a;\n"+
			"  if (in) {\n"+
			"    "+U+" t = s + ("+U+")*cf;\n"+
			"    c |= t < s;\n"+
			"    s = t;\n"+
			"  }\n"+
			"  if (out) *cf = c;\n"+
			"  return s;\n}")
		add("hipgen_ptx_subc_u"+W, "PTX's sub.cc and subc", "__device__ __forceinline__ "+U+" hipgen_ptx_subc_u"+W+"("+U+" a, "+U+" b, unsigned int* cf, bool in, bool out) {\n"+
			"  "+U+" s = a + ~b;\n"+
			"  unsigned int c = s < a;\n"+
			"  "+U+" t = s + ("+U+")(in ? *cf : 1u);\n"+
			"  c |= t < s;\n"+
			"  if (out) *cf = c;\n"+
			"  return t;\n}")
		add("hipgen_ptx_clz_b"+W, "PTX's clz", "__device__ __forceinline__ unsigned int hipgen_ptx_clz_b"+W+"("+U+" a) { return a == 0 ? "+W+"u : (unsigned int)"+clz+"(a); }")
	}
	add("hipgen_ptx_shl", "PTX's shl", "template <class T>\n__device__ __forceinline__ T hipgen_ptx_shl(T a, unsigned int n) { return n >= sizeof(T) * 8u ? (T)0 : (T)(a << n); }")
	add("hipgen_ptx_shr", "PTX's shr", "template <class T>\n__device__ __forceinline__ T hipgen_ptx_shr(T a, unsigned int n) {\n"+
		"  if (n >= sizeof(T) * 8u) return (T)((a >> (sizeof(T) * 8u - 1u)) >> 1);\n"+
		"  return (T)(a >> n);\n}")
	for _, dir := range []string{"l", "r"} {
		for _, mode := range []string{"wrap", "clamp"} {
			n := "c & 31u"
			if mode == "clamp" {
				n = "c < 32u ? c : 32u"
			}
			v := "(x >> n)"
			if dir == "l" {
				v = "((x << n) >> 32)"
			}
			add("hipgen_ptx_shf_"+dir+"_"+mode, "PTX's shf."+dir+"."+mode, "__device__ __forceinline__ unsigned int hipgen_ptx_shf_"+dir+"_"+mode+"(unsigned int a, unsigned int b, unsigned int c) {\n"+
				"  unsigned int n = "+n+";\n"+
				"  unsigned long long x = (unsigned long long)b << 32 | a;\n"+
				"  return (unsigned int)"+v+";\n}")
		}
	}
	add("hipgen_ptx_min", "PTX's min of integers", "template <class T>\n__device__ __forceinline__ T hipgen_ptx_min(T a, T b) { return b < a ? b : a; }")
	add("hipgen_ptx_max", "PTX's max of integers", "template <class T>\n__device__ __forceinline__ T hipgen_ptx_max(T a, T b) { return a < b ? b : a; }")
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
