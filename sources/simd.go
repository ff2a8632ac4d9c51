package sources

import "strings"

// CUDA's SIMD intrinsics (__vadd4, __vmaxs2, __vsadu4 and the rest: the
// Math API's "SIMD Intrinsics") work on the four bytes or two halfwords of
// an unsigned int. HIP has none of them in any release (HIPIFY marks the
// whole family unsupported), and projects use them for image filters and
// sequence alignment (HeCBench's relu: __vmaxs4). Each becomes a polyfill
// that takes the elements apart, computes each as CUDA defines it, and
// puts the result together; the definitions are generated from simdOps.

// simdCoreKey is the polyfill key of the helpers every SIMD polyfill uses.
const simdCoreKey = "(SIMD intrinsics: element helpers)"

var simdCore = polyfill{name: "hipgen_simd", why: "helpers of the SIMD intrinsics' stand-ins",
	code: `// Element i, of w bits (8 or 16), of x: signed (s) or unsigned.
__host__ __device__ static inline int hipgen_simd_get(unsigned int x, int i, int w, bool s) {
  unsigned int v = (x >> (i * w)) & ((1u << w) - 1u);
  return s ? (int)(v ^ (1u << (w - 1))) - (1 << (w - 1)) : (int)v;
}
// r with element i set to the low w bits of v.
__host__ __device__ static inline unsigned int hipgen_simd_put(unsigned int r, int i, int w, int v) {
  return r | (((unsigned int)v & ((1u << w) - 1u)) << (i * w));
}
// v clamped to the range of a w-bit element.
__host__ __device__ static inline int hipgen_simd_sat(int v, int w, bool s) {
  int lo = s ? -(1 << (w - 1)) : 0, hi = s ? (1 << (w - 1)) - 1 : (1 << w) - 1;
  return v < lo ? lo : v > hi ? hi : v;
}`}

// simdOp is one intrinsic of the family, for both element sizes: its
// name without the element count, whether its elements are signed,
// whether it takes one operand, and the element's result as a C
// expression of x and y (the elements, as ints) and w (their width);
// sum: the results are added up instead of put together (__vsad).
type simdOp struct {
	name   string
	signed bool
	unary  bool
	expr   string
	sum    bool
	what   string
	result string // how an element's result reads, after the elements are named
}

var simdOps = []simdOp{
	{name: "__vabs", signed: true, unary: true, expr: "x < 0 ? -x : x", what: "absolute value"},
	{name: "__vabsss", signed: true, unary: true, expr: "hipgen_simd_sat(x < 0 ? -x : x, w, true)", what: "saturated absolute value"},
	{name: "__vneg", signed: true, unary: true, expr: "-x", what: "negation"},
	{name: "__vnegss", signed: true, unary: true, expr: "hipgen_simd_sat(-x, w, true)", what: "saturated negation"},
	{name: "__vabsdiffs", signed: true, expr: "x > y ? x - y : y - x", what: "absolute difference of signed elements"},
	{name: "__vabsdiffu", expr: "x > y ? x - y : y - x", what: "absolute difference"},
	{name: "__vadd", expr: "x + y", what: "sum"},
	{name: "__vaddss", signed: true, expr: "hipgen_simd_sat(x + y, w, true)", what: "signed saturated sum"},
	{name: "__vaddus", expr: "hipgen_simd_sat(x + y, w, false)", what: "unsigned saturated sum"},
	{name: "__vsub", expr: "x - y", what: "difference"},
	{name: "__vsubss", signed: true, expr: "hipgen_simd_sat(x - y, w, true)", what: "signed saturated difference"},
	{name: "__vsubus", expr: "hipgen_simd_sat(x - y, w, false)", what: "unsigned saturated difference"},
	{name: "__vavgs", signed: true, expr: "(x + y + ((x + y) >= 0 ? 1 : 0)) >> 1", what: "signed rounded average"},
	{name: "__vavgu", expr: "(x + y + 1) >> 1", what: "unsigned rounded average"},
	{name: "__vhaddu", expr: "(x + y) >> 1", what: "unsigned average, truncated"},
	{name: "__vmaxs", signed: true, expr: "x > y ? x : y", what: "signed maximum"},
	{name: "__vmaxu", expr: "x > y ? x : y", what: "unsigned maximum"},
	{name: "__vmins", signed: true, expr: "x < y ? x : y", what: "signed minimum"},
	{name: "__vminu", expr: "x < y ? x : y", what: "unsigned minimum"},
	{name: "__vsads", signed: true, expr: "x > y ? x - y : y - x", sum: true, what: "sum of absolute differences of signed elements"},
	{name: "__vsadu", expr: "x > y ? x - y : y - x", sum: true, what: "sum of absolute differences"},
}

// simdCompares are the comparisons: __vcmpXX gives an element of all ones
// where the comparison holds, __vsetXX an element of 1.
var simdCompares = []struct {
	suffix, op string
	signed     bool
}{
	{"eq", "==", false}, {"ne", "!=", false},
	{"ges", ">=", true}, {"geu", ">=", false}, {"gts", ">", true}, {"gtu", ">", false},
	{"les", "<=", true}, {"leu", "<=", false}, {"lts", "<", true}, {"ltu", "<", false},
}

// simdDeps are the dependencies every SIMD polyfill shares.
var simdDeps = []string{simdCoreKey}

// addSIMDPolyfills adds the polyfills of the family to m, by CUDA name.
func addSIMDPolyfills(m map[string]polyfill) {
	ops := append([]simdOp(nil), simdOps...)
	for _, c := range simdCompares {
		ops = append(ops,
			simdOp{name: "__vcmp" + c.suffix, signed: c.signed, expr: "(x " + c.op + " y) ? -1 : 0", what: "comparison (" + c.op + ")", result: ", all ones where it holds"},
			simdOp{name: "__vset" + c.suffix, signed: c.signed, expr: "(x " + c.op + " y) ? 1 : 0", what: "comparison (" + c.op + ")", result: ", 1 where it holds"})
	}
	m[simdCoreKey] = simdCore
	for _, op := range ops {
		for _, n := range []string{"2", "4"} {
			cuda := op.name + n
			elems := "four bytes"
			if n == "2" {
				elems = "two halfwords"
			}
			m[cuda] = polyfill{name: polyfillName(cuda), gen: func() string { return simdDefinition(op, n) }, deps: simdDeps,
				why: "HIP has none of CUDA's SIMD intrinsics; the " + op.what + " of the " + elems + op.result + ", element by element, stands in"}
		}
	}
}

// simdDefinition is the polyfill of op on n elements (2 or 4).
func simdDefinition(op simdOp, n string) string {
	count, width := "2", "16"
	if n == "4" {
		count, width = "4", "8"
	}
	params, y := "unsigned int a, unsigned int b", "hipgen_simd_get(b, i, w, "+boolText(op.signed)+")"
	if op.unary {
		params, y = "unsigned int a", "0"
	}
	var b strings.Builder
	b.WriteString("__host__ __device__ static inline unsigned int " + polyfillName(op.name+n) + "(" + params + ") {\n")
	b.WriteString("  const int w = " + width + ";\n  unsigned int r = 0;\n")
	b.WriteString("  for (int i = 0; i < " + count + "; ++i) {\n")
	b.WriteString("    int x = hipgen_simd_get(a, i, w, " + boolText(op.signed) + "), y = " + y + ";\n    (void)y;\n")
	if op.sum {
		b.WriteString("    r += (unsigned int)(" + op.expr + ");\n")
	} else {
		b.WriteString("    r = hipgen_simd_put(r, i, w, " + op.expr + ");\n")
	}
	b.WriteString("  }\n  return r;\n}")
	return b.String()
}

func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}
