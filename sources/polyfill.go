package sources

import (
	"bytes"
	"sort"
	"strconv"
	"strings"

	"github.com/hipgen/hipgen/diag"
	"github.com/hipgen/hipgen/sources/lex"
)

// Polyfills stand in for CUDA device functions that HIP lacks, or that the
// target ROCm lacks. A call is renamed to a hipgen_ function defined in a
// block inserted into the file, so a later ROCm that gains the CUDA name
// never sees two definitions of it. Each definition has its own guard, so a
// source and the headers it includes may all carry it.

const (
	polyfillBegin = "// hipgen:begin polyfills"
	polyfillEnd   = "// hipgen:end polyfills"
)

// polyfill is the replacement of one CUDA name.
type polyfill struct {
	name string // what calls become
	code string // the definition; empty when name is a compiler builtin
	// gen builds the definition instead, when a file needs it: the
	// generated families (SIMD intrinsics, bfloat16 to integer) would
	// otherwise build a hundred definitions every time the tables are.
	gen func() string
	why string
	// overload: HIP has the name, but not the overload the call needs.
	overload bool
	// typ: the name is a type, used without a call.
	typ bool
	// replaces: the polyfill stands in for the table's mapping to this HIP
	// name, which exists but behaves differently (hip_bfloat16's explicit
	// constructor from float).
	replaces string
	// deps are the keys of polyfills the definition uses, written before it.
	// A polyfill with no code of its own (an enumerator of a stand-in
	// type) brings them.
	deps []string
	// warn: the stand-in does less than CUDA's, so its use is a warning,
	// not a note.
	warn bool
	// constant: a macro constant (math_constants.h), left where the file
	// #defines the name itself, whatever its value.
	constant bool
}

// hipVersionAtLeast55 is true on ROCm 5.5 and later, where HIP has the
// half-precision __hmax and __hmin.
const hipVersionAtLeast55 = "HIP_VERSION_MAJOR > 5 || HIP_VERSION_MAJOR == 5 && HIP_VERSION_MINOR >= 5"

// hipVersionAtLeast57 is true on ROCm 5.7 and later, where HIP has
// __hip_bfloat16 and its conversions.
const hipVersionAtLeast57 = "HIP_VERSION_MAJOR > 5 || HIP_VERSION_MAJOR == 5 && HIP_VERSION_MINOR >= 7"

// definition returns the polyfill's definition, built now if it is
// generated; empty for a compiler builtin.
func (p polyfill) definition() string {
	if p.gen != nil {
		return p.gen()
	}
	return p.code
}

// hasDefinition reports whether the polyfill writes a definition.
func (p polyfill) hasDefinition() bool { return p.code != "" || p.gen != nil }

// emptyAttribute is the polyfill of CUDA's attribute macro name, which
// expands to nothing outside NVIDIA's compiler.
func emptyAttribute(name string) polyfill {
	n := strings.TrimRight(polyfillName(name), "_")
	return polyfill{name: n, typ: true, constant: true, why: name + " became " + n + ", which expands to nothing as " + name + " does outside NVIDIA's compiler (CUDA marks its own types and functions with it); HIP has no such macro", code: "#define " + n}
}

// polyfillName is the name a polyfill of the CUDA function cuda gets:
// hipgen_ and the name without its leading underscores.
func polyfillName(cuda string) string { return "hipgen_" + strings.TrimLeft(cuda, "_") }

// polyfillList lists the polyfills (nameTables adds those of cooperative
// groups).
func polyfillList() map[string]polyfill {
	m := map[string]polyfill{
		ptxValueKey: {name: ptxValue, why: "what an asm statement reading a lane register computes, without the asm", code: "#define " + ptxValue + "(lvalue, value, ...) ((lvalue) = (value))"},
		"__trap":    {name: "__builtin_trap", why: "HIP has no __trap; the compiler builtin aborts the kernel the same way"},
		// Before ROCm 5.4 (hipDrvGetErrorString/Name), the driver API's
		// error text: CUresult is hipError_t, whose text the runtime has.
		"cuGetErrorString": {name: "hipgen_cuGetErrorString", why: "ROCm before 5.4 has no hipDrvGetErrorString; CUresult is hipError_t, whose text hipGetErrorString gives", code: `static inline hipError_t hipgen_cuGetErrorString(hipError_t e, const char** s) {
  *s = hipGetErrorString(e);
  return hipSuccess;
}`},
		"cuGetErrorName": {name: "hipgen_cuGetErrorName", why: "ROCm before 5.4 has no hipDrvGetErrorName; CUresult is hipError_t, whose name hipGetErrorName gives", code: `static inline hipError_t hipgen_cuGetErrorName(hipError_t e, const char** s) {
  *s = hipGetErrorName(e);
  return hipSuccess;
}`},
		"curandOrdering_t":               randOrdering,
		"curandOrdering":                 randOrdering,
		"CURAND_ORDERING_PSEUDO_BEST":    randOrderingMember("PSEUDO_BEST"),
		"CURAND_ORDERING_PSEUDO_DEFAULT": randOrderingMember("PSEUDO_DEFAULT"),
		"CURAND_ORDERING_PSEUDO_SEEDED":  randOrderingMember("PSEUDO_SEEDED"),
		"CURAND_ORDERING_PSEUDO_LEGACY":  randOrderingMember("PSEUDO_LEGACY"),
		"CURAND_ORDERING_PSEUDO_DYNAMIC": randOrderingMember("PSEUDO_DYNAMIC"),
		"CURAND_ORDERING_QUASI_DEFAULT":  randOrderingMember("QUASI_DEFAULT"),
		"curandSetGeneratorOrdering":     setRandOrdering,
		"cusparseGetErrorName":           sparseStatusText("cusparseGetErrorName", "name"),
		"cusparseGetErrorString":         sparseStatusText("cusparseGetErrorString", "description"),
		"__ldca":                         cacheHint("ldca", false),
		"__ldcg":                         cacheHint("ldcg", false),
		"__ldcs":                         cacheHint("ldcs", false),
		"__ldlu":                         cacheHint("ldlu", false),
		"__ldcv":                         cacheHint("ldcv", false),
		"__stcg":                         cacheHint("stcg", true),
		"__stcs":                         cacheHint("stcs", true),
		"__stwb":                         cacheHint("stwb", true),
		"__stwt":                         cacheHint("stwt", true),
		"umin":                           minmax("umin", "unsigned", "<"),
		// CUDA's host_defines.h marks its own types with these, and
		// projects copy them (ccminer's cuda_helper.h declares its
		// vector types __device_builtin__): they expand to nothing but
		// in NVIDIA's front end, and HIP has none of them.
		"__device_builtin__":              emptyAttribute("__device_builtin__"),
		"__cudart_builtin__":              emptyAttribute("__cudart_builtin__"),
		"__device_builtin_texture_type__": emptyAttribute("__device_builtin_texture_type__"),
		"__device_builtin_surface_type__": emptyAttribute("__device_builtin_surface_type__"),
		"__builtin_align__":               {name: "hipgen_builtin_align", why: "CUDA's host_defines.h defines __builtin_align__(n) as __align__(n), an alignment attribute; HIP has __align__ but not __builtin_align__", code: "#define hipgen_builtin_align(n) __attribute__((aligned(n)))"},
		// CUB's test macro (cub/util_debug.cuh): hipCUB names CubDebug
		// HipcubDebug, with the same report, but has no CubDebugExit.
		"CubDebugExit":     {name: "hipgen_CubDebugExit", why: "hipCUB has no CubDebugExit; CUB defines it as if (CubDebug(e)) { exit(1); }, and HipcubDebug is hipCUB's CubDebug", code: "#define hipgen_CubDebugExit(e) if (HipcubDebug(e)) { exit(1); }"},
		"umax":             minmax("umax", "unsigned", ">"),
		"llmin":            minmax("llmin", "long long", "<"),
		"llmax":            minmax("llmax", "long long", ">"),
		"ullmin":           minmax("ullmin", "unsigned long long", "<"),
		"ullmax":           minmax("ullmax", "unsigned long long", ">"),
		"mulhi":            legacyWrapper("mulhi", "int mulhi(int a, int b) { return __mulhi(a, b); }", "unsigned int mulhi(unsigned int a, unsigned int b) { return __umulhi(a, b); }", "unsigned int mulhi(int a, unsigned int b) { return __umulhi(static_cast<unsigned int>(a), b); }", "unsigned int mulhi(unsigned int a, int b) { return __umulhi(a, static_cast<unsigned int>(b)); }"),
		"mul64hi":          legacyWrapper("mul64hi", "long long int mul64hi(long long int a, long long int b) { return __mul64hi(a, b); }", "unsigned long long int mul64hi(unsigned long long int a, unsigned long long int b) { return __umul64hi(a, b); }", "unsigned long long int mul64hi(long long int a, unsigned long long int b) { return __umul64hi(static_cast<unsigned long long int>(a), b); }", "unsigned long long int mul64hi(unsigned long long int a, long long int b) { return __umul64hi(a, static_cast<unsigned long long int>(b)); }"),
		"float_as_int":     legacyWrapper("float_as_int", "int float_as_int(float a) { return __float_as_int(a); }"),
		"int_as_float":     legacyWrapper("int_as_float", "float int_as_float(int a) { return __int_as_float(a); }"),
		"float_as_uint":    legacyWrapper("float_as_uint", "unsigned int float_as_uint(float a) { return __float_as_uint(a); }"),
		"uint_as_float":    legacyWrapper("uint_as_float", "float uint_as_float(unsigned int a) { return __uint_as_float(a); }"),
		"saturate":         legacyWrapper("saturate", "float saturate(float a) { return __saturatef(a); }"),
		"mul24":            legacyWrapper("mul24", "int mul24(int a, int b) { return __mul24(a, b); }"),
		"umul24":           legacyWrapper("umul24", "unsigned int umul24(unsigned int a, unsigned int b) { return __umul24(a, b); }"),
		"float2int":        roundModeWrapper("float2int", "int", "float", "cudaRoundZero", "__float2int"),
		"float2uint":       roundModeWrapper("float2uint", "unsigned int", "float", "cudaRoundZero", "__float2uint"),
		"int2float":        roundModeWrapper("int2float", "float", "int", "cudaRoundNearest", "__int2float"),
		"uint2float":       roundModeWrapper("uint2float", "float", "unsigned int", "cudaRoundNearest", "__uint2float"),
		"cudaRoundMode":    roundMode,
		"cudaRoundNearest": {name: "hipgen_RoundNearest", typ: true, deps: []string{"cudaRoundMode"}, why: roundMode.why},
		"cudaRoundZero":    {name: "hipgen_RoundZero", typ: true, deps: []string{"cudaRoundMode"}, why: roundMode.why},
		"cudaRoundPosInf":  {name: "hipgen_RoundPosInf", typ: true, deps: []string{"cudaRoundMode"}, why: roundMode.why},
		"cudaRoundMinInf":  {name: "hipgen_RoundMinInf", typ: true, deps: []string{"cudaRoundMode"}, why: roundMode.why},
		"atomicInc_system": atomicWrapSystem("Inc", "assumed >= v ? 0u : assumed + 1u", "a wrapping increment"),
		"atomicDec_system": atomicWrapSystem("Dec", "assumed == 0u || assumed > v ? v : assumed - 1u", "a wrapping decrement"),
		"atomicMax":        {name: "hipgen_atomicmax_i64", overload: true, why: "ROCm before 5.7 has no atomicMax for signed 64-bit integers; a compare-and-swap loop stands in", code: atomicMinMax64("max", ">=")},
		"atomicMin":        {name: "hipgen_atomicmin_i64", overload: true, why: "ROCm before 5.7 has no atomicMin for signed 64-bit integers; a compare-and-swap loop stands in", code: atomicMinMax64("min", "<=")},
		"__hmax": {name: "hipgen_hmax", why: "ROCm before 5.5 has no __hmax", code: `template <class H>
__device__ static inline H hipgen_hmax(H a, H b) {
#if ` + hipVersionAtLeast55 + `
  return __hmax(a, b);
#else
  if (__hisnan(a)) return b;
  if (__hisnan(b)) return a;
  if (__hgt(a, b)) return a;
  if (__hgt(b, a)) return b;
  unsigned short s; // equal: +0 is greater than -0, as in CUDA
  __builtin_memcpy(&s, &a, sizeof s);
  return (s & 0x8000u) ? b : a;
#endif
}`},
		"__hmax2": {name: "hipgen_hmax2", why: "HIP has no __hmax2; the larger of each pair of halves (hipgen_hmax: a NaN loses to a number, as in CUDA) stands in", deps: []string{"__hmax"},
			code: `__device__ static inline __half2 hipgen_hmax2(__half2 a, __half2 b) {
  return __halves2half2(hipgen_hmax(__low2half(a), __low2half(b)), hipgen_hmax(__high2half(a), __high2half(b)));
}`},
		"__hmin2": {name: "hipgen_hmin2", why: "HIP has no __hmin2; the smaller of each pair of halves (hipgen_hmin: a NaN loses to a number, as in CUDA) stands in", deps: []string{"__hmin"},
			code: `__device__ static inline __half2 hipgen_hmin2(__half2 a, __half2 b) {
  return __halves2half2(hipgen_hmin(__low2half(a), __low2half(b)), hipgen_hmin(__high2half(a), __high2half(b)));
}`},
		"__hmin": {name: "hipgen_hmin", why: "ROCm before 5.5 has no __hmin", code: `template <class H>
__device__ static inline H hipgen_hmin(H a, H b) {
#if ` + hipVersionAtLeast55 + `
  return __hmin(a, b);
#else
  if (__hisnan(a)) return b;
  if (__hisnan(b)) return a;
  if (__hlt(a, b)) return a;
  if (__hlt(b, a)) return b;
  unsigned short s; // equal: -0 is less than +0, as in CUDA
  __builtin_memcpy(&s, &a, sizeof s);
  return (s & 0x8000u) ? a : b;
#endif
}`},
		// Not a function: value uses of __CUDA_ARCH__ (cudaarch.go).
		"__CUDA_ARCH__": {name: archMacro, code: "#if defined(__HIP_DEVICE_COMPILE__)\n#define " + archMacro + " " + archMacroValue + "\n#endif"},
		// Not a function: value uses of CUDART_VERSION (cudaarch.go).
		"CUDART_VERSION": {name: versionMacro, code: "#define " + versionMacro + " " + versionMacroValue},
		// Not a function: the aligned HIP_DYNAMIC_SHARED (dynshared.go).
		dynamicSharedAligned: dynamicSharedMacro,
		"nv_bfloat162":       bfloat162,
		"__nv_bfloat162":     bfloat162,
		"nv_bfloat16":        bfloat16,
		"__nv_bfloat16":      bfloat16,
		"__bfloat162float": {name: "hipgen_bfloat162float", why: "ROCm before 5.7 has only the hip_bfloat16 class, which converts to float", code: `template <class B>
__host__ __device__ static inline float hipgen_bfloat162float(B b) { return static_cast<float>(b); }`},
		"__ushort_as_bfloat16":       bfloat16Bits("__ushort_as_bfloat16", "hipgen_bfloat16", "unsigned short u", "hipgen_bfloat16 b; b.data = u; return b;"),
		"__short_as_bfloat16":        bfloat16Bits("__short_as_bfloat16", "hipgen_bfloat16", "short s", "hipgen_bfloat16 b; b.data = (unsigned short)s; return b;"),
		"__bfloat16_as_ushort":       bfloat16Bits("__bfloat16_as_ushort", "unsigned short", "hipgen_bfloat16 b", "return b.data;"),
		"__bfloat16_as_short":        bfloat16Bits("__bfloat16_as_short", "short", "hipgen_bfloat16 b", "return (short)b.data;"),
		"__float22bfloat162_rn":      bfloat162Conversion("__float22bfloat162_rn", "hipgen_bfloat162", "float2 f", "hipgen_bfloat162(static_cast<float>(f.x), static_cast<float>(f.y))"),
		"__bfloat1622float2":         bfloat162Conversion("__bfloat1622float2", "float2", "hipgen_bfloat162 b", "make_float2(static_cast<float>(b.x), static_cast<float>(b.y))"),
		"__halves2bfloat162":         bfloat162Conversion("__halves2bfloat162", "hipgen_bfloat162", "hipgen_bfloat16 a, hipgen_bfloat16 b", "hipgen_bfloat162(a, b)"),
		"__bfloat162bfloat162":       bfloat162Conversion("__bfloat162bfloat162", "hipgen_bfloat162", "hipgen_bfloat16 a", "hipgen_bfloat162(a, a)"),
		"__low2bfloat16":             bfloat162Conversion("__low2bfloat16", "hipgen_bfloat16", "hipgen_bfloat162 b", "b.x"),
		"__high2bfloat16":            bfloat162Conversion("__high2bfloat16", "hipgen_bfloat16", "hipgen_bfloat162 b", "b.y"),
		"__low2bfloat162":            bfloat162Conversion("__low2bfloat162", "hipgen_bfloat162", "hipgen_bfloat162 b", "hipgen_bfloat162(b.x, b.x)"),
		"__high2bfloat162":           bfloat162Conversion("__high2bfloat162", "hipgen_bfloat162", "hipgen_bfloat162 b", "hipgen_bfloat162(b.y, b.y)"),
		"__lows2bfloat162":           bfloat162Conversion("__lows2bfloat162", "hipgen_bfloat162", "hipgen_bfloat162 a, hipgen_bfloat162 b", "hipgen_bfloat162(a.x, b.x)"),
		"__highs2bfloat162":          bfloat162Conversion("__highs2bfloat162", "hipgen_bfloat162", "hipgen_bfloat162 a, hipgen_bfloat162 b", "hipgen_bfloat162(a.y, b.y)"),
		"htanh":                      halfTanh,
		"htanh_approx":               {name: "hipgen_htanh", deps: []string{"htanh"}, why: halfTanh.why},
		"h2tanh":                     {name: "hipgen_h2tanh", deps: []string{"htanh"}, why: halfTanh.why},
		"h2tanh_approx":              {name: "hipgen_h2tanh", deps: []string{"htanh"}, why: halfTanh.why},
		"__cvta_generic_to_shared":   addressSpaces,
		"__cvta_shared_to_generic":   {name: "hipgen_cvta_shared_to_generic", deps: []string{"__cvta_generic_to_shared"}, why: addressSpaces.why},
		"__cvta_generic_to_global":   {name: "hipgen_cvta_generic_to_global", deps: []string{"__cvta_generic_to_shared"}, why: addressSpaces.why},
		"__cvta_global_to_generic":   {name: "hipgen_cvta_global_to_generic", deps: []string{"__cvta_generic_to_shared"}, why: addressSpaces.why},
		"__cvta_generic_to_constant": {name: "hipgen_cvta_generic_to_constant", deps: []string{"__cvta_generic_to_shared"}, why: addressSpaces.why},
		"__cvta_constant_to_generic": {name: "hipgen_cvta_constant_to_generic", deps: []string{"__cvta_generic_to_shared"}, why: addressSpaces.why},
		"__cvta_generic_to_local":    {name: "hipgen_cvta_generic_to_local", deps: []string{"__cvta_generic_to_shared"}, why: addressSpaces.why},
		"__cvta_local_to_generic":    {name: "hipgen_cvta_local_to_generic", deps: []string{"__cvta_generic_to_shared"}, why: addressSpaces.why},
		mixedMinMaxKey:               mixedMinMax,
		atomicAddHalfKey:             atomicAddHalf,
		atomicI64Key:                 atomicI64,
		shuffleAnyKey:                shuffleAny,
		halfHostKey:                  halfHost,
		"__float2bfloat16":           float2bfloat16,
		"__float2bfloat16_rn":        float2bfloat16, // the same rounding, to nearest even
	}
	addSIMDPolyfills(m)
	addConstants(m, mathConstants[:], mathConstantWhy)
	addConstants(m, sharedmemCarveouts[:], carveoutWhy)
	addBF16IntPolyfills(m)
	for _, h := range hostMath {
		m[hostMathKey(h.name)] = hostMathPolyfill(h)
	}
	m[hostSpecialKey] = hostSpecial
	m[hostHalfToIntKey] = hostHalfToInt
	m[memLocationKey] = memLocation
	m["__double2half"] = double2half
	m[half2MemberKey] = half2Member
	m["cudaMemLocationTypeHost"] = memLocationHost
	for _, n := range []string{"cudaMemLocationTypeHostNuma", "cudaMemLocationTypeHostNumaCurrent"} {
		m[n] = polyfill{name: memLocationHost.name, typ: true, warn: true, why: memLocationHost.why, deps: []string{"cudaMemLocationTypeHost"}}
	}
	ptxPolyfills(m)
	return m
}

// hostMath are CUDA math functions that CUDA's headers define for host
// code too (math_functions.hpp) and HIP's for device code only, with what
// the host computes: HeCBench's softmax-fused scales by rsqrtf(n) on the
// host. Calls that the host pass compiles go to a __host__ __device__
// stand-in that calls HIP's function in the device pass. CUDA computes the
// float forms through the double ones; so do the stand-ins, whose float
// results were the same as CUDA 11.8's host functions' for 4 million
// random arguments each (the double ones within 10 units in the last
// place), and whose special values (zeros with their sign, infinities,
// NaN, the ends of the domains) are CUDA's.
var hostMath = []hostMathFunc{
	{name: "rsqrtf", typ: "float", host: "(float)(1.0 / sqrt((double)x))"},
	{name: "rsqrt", typ: "double", host: "1.0 / sqrt(x)"},
	{name: "rcbrtf", typ: "float", host: "(float)(1.0 / cbrt((double)x))"},
	{name: "rcbrt", typ: "double", host: "1.0 / cbrt(x)"},
	{name: "normcdff", typ: "float", host: "(float)(0.5 * erfc(-(double)x * 0.70710678118654752440))"},
	{name: "normcdf", typ: "double", host: "0.5 * erfc(-x * 0.70710678118654752440)"},
	{name: "sinpif", typ: "float", host: "(float)hipgen_host_sinpi((double)x)", helper: hostSpecialKey},
	{name: "sinpi", typ: "double", host: "hipgen_host_sinpi(x)", helper: hostSpecialKey},
	{name: "cospif", typ: "float", host: "(float)hipgen_host_cospi((double)x)", helper: hostSpecialKey},
	{name: "cospi", typ: "double", host: "hipgen_host_cospi(x)", helper: hostSpecialKey},
	{name: "sincospif", typ: "float", helper: hostSpecialKey, sincos: true},
	{name: "sincospi", typ: "double", helper: hostSpecialKey, sincos: true},
	{name: "erfinvf", typ: "float", host: "(float)hipgen_host_erfinv((double)x)", helper: hostSpecialKey},
	{name: "erfinv", typ: "double", host: "hipgen_host_erfinv(x)", helper: hostSpecialKey},
	{name: "erfcinvf", typ: "float", host: "(float)hipgen_host_erfcinv((double)x)", helper: hostSpecialKey},
	{name: "erfcinv", typ: "double", host: "hipgen_host_erfcinv(x)", helper: hostSpecialKey},
	{name: "erfcxf", typ: "float", host: "(float)hipgen_host_erfcx((double)x)", helper: hostSpecialKey},
	{name: "erfcx", typ: "double", host: "hipgen_host_erfcx(x)", helper: hostSpecialKey},
	{name: "normcdfinvf", typ: "float", host: "(float)(-1.41421356237309504880 * hipgen_host_erfcinv(2.0 * (double)x))", helper: hostSpecialKey},
	{name: "normcdfinv", typ: "double", host: "-1.41421356237309504880 * hipgen_host_erfcinv(2.0 * x)", helper: hostSpecialKey},
	// cuda_fp16.h's conversions between half and the integer types that
	// CUDA 11.8's host compiler takes (to half rounding to nearest, from
	// half toward zero) and ROCm 5.2's host pass does not. Every integer
	// that half can hold exactly is a float exactly, and larger ones
	// overflow half either way, so one rounding through float is CUDA's;
	// from half, CUDA saturates, and gives 0 for NaN (the minimum, as bits
	// 0x8000000000000000, for the 64-bit types).
	{name: "__int2half_rn", typ: "int", ret: "__half", host: "__float2half((float)x)", fp16: true},
	{name: "__uint2half_rn", typ: "unsigned int", ret: "__half", host: "__float2half((float)x)", fp16: true},
	{name: "__short2half_rn", typ: "short", ret: "__half", host: "__float2half((float)x)", fp16: true},
	{name: "__ushort2half_rn", typ: "unsigned short", ret: "__half", host: "__float2half((float)x)", fp16: true},
	{name: "__ll2half_rn", typ: "long long", ret: "__half", host: "__float2half((float)x)", fp16: true},
	{name: "__ull2half_rn", typ: "unsigned long long", ret: "__half", host: "__float2half((float)x)", fp16: true},
	{name: "__half2int_rz", typ: "__half", ret: "int", host: "hipgen_host_half2int<int>(__half2float(x), 0)", fp16: true, helper: hostHalfToIntKey},
	{name: "__half2uint_rz", typ: "__half", ret: "unsigned int", host: "hipgen_host_half2int<unsigned int>(__half2float(x), 0)", fp16: true, helper: hostHalfToIntKey},
	{name: "__half2short_rz", typ: "__half", ret: "short", host: "hipgen_host_half2int<short>(__half2float(x), 0)", fp16: true, helper: hostHalfToIntKey},
	{name: "__half2ushort_rz", typ: "__half", ret: "unsigned short", host: "hipgen_host_half2int<unsigned short>(__half2float(x), 0)", fp16: true, helper: hostHalfToIntKey},
	{name: "__half2ll_rz", typ: "__half", ret: "long long", host: "hipgen_host_half2int<long long>(__half2float(x), std::numeric_limits<long long>::min())", fp16: true, helper: hostHalfToIntKey},
	{name: "__half2ull_rz", typ: "__half", ret: "unsigned long long", host: "hipgen_host_half2int<unsigned long long>(__half2float(x), 0x8000000000000000ull)", fp16: true, helper: hostHalfToIntKey},
}

// hostMathFunc is a hostMath function: its name, its type (of the
// argument and the result) and the host's expression of x. helper: the
// key of the polyfill whose host functions the expression calls
// (hostSpecial, hostHalfToInt); sincos: the function is sincospi's form,
// void (x, *sin, *cos), computed by the host's sinpi and cospi.
type hostMathFunc struct {
	name, typ, host, helper string
	sincos                  bool
	// ret is the result's type when it is not typ's; fp16: the types
	// are half's (hip/hip_fp16.h).
	ret  string
	fp16 bool
}

// hostHalfToIntKey is the polyfill key of hostHalfToInt.
const hostHalfToIntKey = "(host half to integer)"

// hostHalfToInt converts a half's value (as a float) to the integer type
// I as CUDA's host conversions do: toward zero, saturating, and NaN as
// the value given.
var hostHalfToInt = polyfill{name: "hipgen_host_half2int",
	why: "the host's conversion of half to the integer types, as CUDA's",
	code: `#include <limits>
template <class I>
static inline I hipgen_host_half2int(float f, I nan) {
  if (f != f) return nan;
  if (f >= (float)std::numeric_limits<I>::max()) return std::numeric_limits<I>::max();
  if (f <= (float)std::numeric_limits<I>::min()) return std::numeric_limits<I>::min();
  return (I)f;
}`}

// hostSpecialKey is the polyfill key of hostSpecial.
const hostSpecialKey = "(host special functions)"

// hostSpecial are host versions of the special functions CUDA has for the
// host too and the C library lacks: sinpi and cospi reduce the argument
// exactly (remainder by 2) before one sine; erfcx is exp(x*x)*erfc(x),
// with x*x carried to twice the precision, below 26 and a continued
// fraction above; erfinv and erfcinv start from Winitzki's approximation
// and refine it, by Halley's method on erf near 0 and by Newton's on
// log(erfc) (through erfcx, which neither overflows nor underflows) in the
// tails, down to erfcinv of the least double.
var hostSpecial = polyfill{name: "hipgen_host_erfinv",
	why: "host versions of CUDA's special functions that the C library lacks",
	code: `#include <math.h>
static inline double hipgen_host_sinpi(double x) {
  double r = remainder(x, 2.0);
  if (r > 0.5) r = 1.0 - r;
  else if (r < -0.5) r = -1.0 - r;
  double s = sin(3.141592653589793238 * r);
  return s == 0.0 ? copysign(0.0, x) : s;
}
static inline double hipgen_host_cospi(double x) { return hipgen_host_sinpi(0.5 - fabs(remainder(x, 2.0))); }
static inline double hipgen_host_erfcx(double x) {
  if (x < 26.0) {
    double x2 = x * x, e = fma(x, x, -x2);
    if (x < 0.0) return x < -26.7 ? __builtin_inf() : 2.0 * exp(x2) * (1.0 + e) - hipgen_host_erfcx(-x);
    return exp(x2) * (1.0 + e) * erfc(x);
  }
  double f = x;
  for (int n = 40; n > 0; n--) f = x + 0.5 * n / f;
  return 0.56418958354775628695 / f;
}
static inline double hipgen_host_erfinv_start(double l) {
  double a = 4.3307467508 + 0.5 * l;
  return sqrt(sqrt(a * a - l / 0.147) - a);
}
static inline double hipgen_host_erfcinv_tail(double t) {
  double x = hipgen_host_erfinv_start(log(t * (2.0 - t))), lt = log(t);
  for (int i = 0; i < 6; i++) {
    double x2 = x * x, e = fma(x, x, -x2), ex = hipgen_host_erfcx(x);
    x += ((log(ex) - x2) - e - lt) * 0.88622692545275801365 * ex;
  }
  return x;
}
static inline double hipgen_host_erfinv_small(double y) {
  double x = copysign(hipgen_host_erfinv_start(log((1.0 - y) * (1.0 + y))), y);
  for (int i = 0; i < 3; i++) {
    double u = (erf(x) - y) * 0.88622692545275801365 * exp(x * x);
    x -= u / (1.0 + x * u);
  }
  return x;
}
static inline double hipgen_host_erfinv(double y) {
  if (!(fabs(y) <= 1.0)) return __builtin_nan("");
  if (fabs(y) == 1.0) return copysign(__builtin_inf(), y);
  if (fabs(y) <= 0.5) return hipgen_host_erfinv_small(y);
  return copysign(hipgen_host_erfcinv_tail(1.0 - fabs(y)), y);
}
static inline double hipgen_host_erfcinv(double z) {
  if (!(z >= 0.0 && z <= 2.0)) return __builtin_nan("");
  if (z == 0.0) return __builtin_inf();
  if (z == 2.0) return -__builtin_inf();
  if (z < 0.5) return hipgen_host_erfcinv_tail(z);
  if (z > 1.5) return -hipgen_host_erfcinv_tail(2.0 - z);
  return hipgen_host_erfinv_small(1.0 - z);
}`}

// hostMathKey is the polyfill key of the host stand-in of the math
// function name (not an identifier: device calls keep HIP's function).
func hostMathKey(name string) string { return "(" + name + " in host code)" }

// hostMathPolyfill is the stand-in of one hostMath function.
func hostMathPolyfill(h hostMathFunc) polyfill {
	name := polyfillName(h.name)
	ret, include := h.typ, "#include <math.h>\n"
	if h.ret != "" {
		ret = h.ret
	}
	if h.fp16 {
		include = "#include <hip/hip_fp16.h>\n"
	}
	p := polyfill{name: name,
		why: "HIP defines " + h.name + " for device code only, CUDA for host code too; a __host__ __device__ function that computes it as CUDA's host version does, and calls HIP's in the device pass, stands in",
		code: include + "static inline __host__ __device__ " + ret + " " + name + "(" + h.typ + " x) {\n" +
			"#if defined(__HIP_DEVICE_COMPILE__)\n  return " + h.name + "(x);\n#else\n  return " + h.host + ";\n#endif\n}"}
	if h.sincos {
		t := h.typ
		p.code = "static inline __host__ __device__ void " + name + "(" + t + " x, " + t + "* s, " + t + "* c) {\n" +
			"#if defined(__HIP_DEVICE_COMPILE__)\n  " + h.name + "(x, s, c);\n#else\n" +
			"  *s = (" + t + ")hipgen_host_sinpi((double)x);\n  *c = (" + t + ")hipgen_host_cospi((double)x);\n#endif\n}"
	}
	if h.helper != "" {
		p.deps = []string{h.helper}
	}
	return p
}

// hostMathCall renames a call, at k, of the hostMath function name in code
// that the host pass compiles (a host function, or a __host__ __device__
// one) to its stand-in. It reports whether it did.
func (t *translator) hostMathCall(k int, name string) bool {
	if !t.plainCall(k) || !t.hostCompiles(k) || t.definesFunction(name) {
		return false
	}
	key := hostMathKey(name)
	p := t.names.polyfills[key]
	t.replace(k, p.name)
	t.needRuntime = true
	t.notePolyfill(key, int(t.tok(k).Start))
	t.report(k, diag.Note, "polyfill", name+" in code the host pass compiles became "+p.name+": "+p.why+oncePerFile)
	return true
}

// bfloat16 stands in for CUDA's __nv_bfloat16 before ROCm 5.7, whose
// hip_bfloat16 class is built from a float only explicitly: "bf16 x =
// f * s;", "out[i] = acc;" and "return 0.0f;" compile with CUDA's type and
// not with it. The stand-in is a hip_bfloat16 (same size and bits, usable
// wherever one is) that converts from float, double and the integer types
// implicitly, as CUDA's does, rounding to nearest even; it converts to
// float, and its arithmetic and comparisons are CUDA's: through float, the
// result rounded back.
var bfloat16 = polyfill{name: "hipgen_bfloat16", typ: true, replaces: "hip_bfloat16",
	why: "ROCm before 5.7 has only the hip_bfloat16 class, whose constructor from float is explicit; a hip_bfloat16 that converts from float, double and integers implicitly, as CUDA's __nv_bfloat16 does, stands in",
	code: `#include <hip/hip_bfloat16.h>
struct hipgen_bfloat16 : hip_bfloat16 {
  hipgen_bfloat16() = default;
  __host__ __device__ hipgen_bfloat16(hip_bfloat16 b) : hip_bfloat16(b) {}
  __host__ __device__ hipgen_bfloat16(float f) : hip_bfloat16(f) {}
  __host__ __device__ hipgen_bfloat16(double d) : hip_bfloat16(static_cast<float>(d)) {}
  __host__ __device__ hipgen_bfloat16(short i) : hip_bfloat16(static_cast<float>(i)) {}
  __host__ __device__ hipgen_bfloat16(unsigned short i) : hip_bfloat16(static_cast<float>(i)) {}
  __host__ __device__ hipgen_bfloat16(int i) : hip_bfloat16(static_cast<float>(i)) {}
  __host__ __device__ hipgen_bfloat16(unsigned int i) : hip_bfloat16(static_cast<float>(i)) {}
  __host__ __device__ hipgen_bfloat16(long i) : hip_bfloat16(static_cast<float>(i)) {}
  __host__ __device__ hipgen_bfloat16(unsigned long i) : hip_bfloat16(static_cast<float>(i)) {}
  __host__ __device__ hipgen_bfloat16(long long i) : hip_bfloat16(static_cast<float>(i)) {}
  __host__ __device__ hipgen_bfloat16(unsigned long long i) : hip_bfloat16(static_cast<float>(i)) {}
  friend __host__ __device__ hipgen_bfloat16 operator+(hipgen_bfloat16 a, hipgen_bfloat16 b) { return static_cast<float>(a) + static_cast<float>(b); }
  friend __host__ __device__ hipgen_bfloat16 operator-(hipgen_bfloat16 a, hipgen_bfloat16 b) { return static_cast<float>(a) - static_cast<float>(b); }
  friend __host__ __device__ hipgen_bfloat16 operator*(hipgen_bfloat16 a, hipgen_bfloat16 b) { return static_cast<float>(a) * static_cast<float>(b); }
  friend __host__ __device__ hipgen_bfloat16 operator/(hipgen_bfloat16 a, hipgen_bfloat16 b) { return static_cast<float>(a) / static_cast<float>(b); }
  friend __host__ __device__ hipgen_bfloat16 operator-(hipgen_bfloat16 a) { return -static_cast<float>(a); }
  friend __host__ __device__ hipgen_bfloat16 operator+(hipgen_bfloat16 a) { return a; }
  friend __host__ __device__ bool operator==(hipgen_bfloat16 a, hipgen_bfloat16 b) { return static_cast<float>(a) == static_cast<float>(b); }
  friend __host__ __device__ bool operator!=(hipgen_bfloat16 a, hipgen_bfloat16 b) { return static_cast<float>(a) != static_cast<float>(b); }
  friend __host__ __device__ bool operator<(hipgen_bfloat16 a, hipgen_bfloat16 b) { return static_cast<float>(a) < static_cast<float>(b); }
  friend __host__ __device__ bool operator<=(hipgen_bfloat16 a, hipgen_bfloat16 b) { return static_cast<float>(a) <= static_cast<float>(b); }
  friend __host__ __device__ bool operator>(hipgen_bfloat16 a, hipgen_bfloat16 b) { return static_cast<float>(a) > static_cast<float>(b); }
  friend __host__ __device__ bool operator>=(hipgen_bfloat16 a, hipgen_bfloat16 b) { return static_cast<float>(a) >= static_cast<float>(b); }
  __host__ __device__ hipgen_bfloat16& operator+=(hipgen_bfloat16 b) { return *this = *this + b; }
  __host__ __device__ hipgen_bfloat16& operator-=(hipgen_bfloat16 b) { return *this = *this - b; }
  __host__ __device__ hipgen_bfloat16& operator*=(hipgen_bfloat16 b) { return *this = *this * b; }
  __host__ __device__ hipgen_bfloat16& operator/=(hipgen_bfloat16 b) { return *this = *this / b; }
  __host__ __device__ hipgen_bfloat16& operator++() { return *this += hipgen_bfloat16(1.0f); }
  __host__ __device__ hipgen_bfloat16& operator--() { return *this -= hipgen_bfloat16(1.0f); }
  __host__ __device__ hipgen_bfloat16 operator++(int) { hipgen_bfloat16 r = *this; ++*this; return r; }
  __host__ __device__ hipgen_bfloat16 operator--(int) { hipgen_bfloat16 r = *this; --*this; return r; }
};
` + bfloat16Intrinsics}

// bfloat16Intrinsics are CUDA's bf16 overloads of the arithmetic and
// comparison intrinsics that HIP has only for __half (and, for __hadd, as
// the integer average of two ints, which a bf16 argument would otherwise
// reach through float: a wrong result, silently). Results are CUDA's: the
// operation in float, rounded to bf16 once (__hfma: fmaf, then rounded).
// Ordered comparisons are false when either is NaN, except ne; the
// unordered ones (__hequ, ...) are true then. __hmax and __hmin return
// the number when the other is a NaN, and of two equal values the one
// CUDA returns: +0 is greater than -0, whichever comes first. hipgen_hmax
// and hipgen_hmin are the names __hmax and __hmin take before ROCm 5.5.
// The math functions (hfloor, hlog2, ...) are the float function's result
// rounded to bf16, as CUDA's are (CUDA's use its approximate float
// instructions for the transcendental ones, which agree to bf16's 8 bits
// except where the result lies at a rounding boundary; ROCm 5.7's own
// versions use its float functions as these do).
// (A literal: hipgen builds nothing at start that a run may not need.)
const bfloat16Intrinsics = `__host__ __device__ static inline hipgen_bfloat16 __hadd(hipgen_bfloat16 a, hipgen_bfloat16 b) { return a + b; }
__host__ __device__ static inline hipgen_bfloat16 __hadd_rn(hipgen_bfloat16 a, hipgen_bfloat16 b) { return a + b; }
__host__ __device__ static inline hipgen_bfloat16 __hsub(hipgen_bfloat16 a, hipgen_bfloat16 b) { return a - b; }
__host__ __device__ static inline hipgen_bfloat16 __hsub_rn(hipgen_bfloat16 a, hipgen_bfloat16 b) { return a - b; }
__host__ __device__ static inline hipgen_bfloat16 __hmul(hipgen_bfloat16 a, hipgen_bfloat16 b) { return a * b; }
__host__ __device__ static inline hipgen_bfloat16 __hmul_rn(hipgen_bfloat16 a, hipgen_bfloat16 b) { return a * b; }
__host__ __device__ static inline hipgen_bfloat16 __hdiv(hipgen_bfloat16 a, hipgen_bfloat16 b) { return a / b; }
__host__ __device__ static inline hipgen_bfloat16 __hfma(hipgen_bfloat16 a, hipgen_bfloat16 b, hipgen_bfloat16 c) { return fmaf(static_cast<float>(a), static_cast<float>(b), static_cast<float>(c)); }
__host__ __device__ static inline hipgen_bfloat16 __hneg(hipgen_bfloat16 a) { return -a; }
__host__ __device__ static inline hipgen_bfloat16 __habs(hipgen_bfloat16 a) { return fabsf(static_cast<float>(a)); }
__host__ __device__ static inline bool __hisnan(hipgen_bfloat16 a) { return static_cast<float>(a) != static_cast<float>(a); }
__host__ __device__ static inline int __hisinf(hipgen_bfloat16 a) { float x = static_cast<float>(a); return x == __builtin_inff() ? 1 : x == -__builtin_inff() ? -1 : 0; }
__host__ __device__ static inline bool __heq(hipgen_bfloat16 a, hipgen_bfloat16 b) { return static_cast<float>(a) == static_cast<float>(b); }
__host__ __device__ static inline bool __hequ(hipgen_bfloat16 a, hipgen_bfloat16 b) { return __hisnan(a) || __hisnan(b) || static_cast<float>(a) == static_cast<float>(b); }
__host__ __device__ static inline bool __hne(hipgen_bfloat16 a, hipgen_bfloat16 b) { return static_cast<float>(a) != static_cast<float>(b); }
__host__ __device__ static inline bool __hneu(hipgen_bfloat16 a, hipgen_bfloat16 b) { return __hisnan(a) || __hisnan(b) || static_cast<float>(a) != static_cast<float>(b); }
__host__ __device__ static inline bool __hlt(hipgen_bfloat16 a, hipgen_bfloat16 b) { return static_cast<float>(a) < static_cast<float>(b); }
__host__ __device__ static inline bool __hltu(hipgen_bfloat16 a, hipgen_bfloat16 b) { return __hisnan(a) || __hisnan(b) || static_cast<float>(a) < static_cast<float>(b); }
__host__ __device__ static inline bool __hle(hipgen_bfloat16 a, hipgen_bfloat16 b) { return static_cast<float>(a) <= static_cast<float>(b); }
__host__ __device__ static inline bool __hleu(hipgen_bfloat16 a, hipgen_bfloat16 b) { return __hisnan(a) || __hisnan(b) || static_cast<float>(a) <= static_cast<float>(b); }
__host__ __device__ static inline bool __hgt(hipgen_bfloat16 a, hipgen_bfloat16 b) { return static_cast<float>(a) > static_cast<float>(b); }
__host__ __device__ static inline bool __hgtu(hipgen_bfloat16 a, hipgen_bfloat16 b) { return __hisnan(a) || __hisnan(b) || static_cast<float>(a) > static_cast<float>(b); }
__host__ __device__ static inline bool __hge(hipgen_bfloat16 a, hipgen_bfloat16 b) { return static_cast<float>(a) >= static_cast<float>(b); }
__host__ __device__ static inline bool __hgeu(hipgen_bfloat16 a, hipgen_bfloat16 b) { return __hisnan(a) || __hisnan(b) || static_cast<float>(a) >= static_cast<float>(b); }
__host__ __device__ static inline hipgen_bfloat16 __hmax(hipgen_bfloat16 a, hipgen_bfloat16 b) { float x = static_cast<float>(a), y = static_cast<float>(b); return x != x ? b : y != y ? a : x > y ? a : y > x ? b : (a.data & 0x8000u) ? b : a; }
__host__ __device__ static inline hipgen_bfloat16 __hmin(hipgen_bfloat16 a, hipgen_bfloat16 b) { float x = static_cast<float>(a), y = static_cast<float>(b); return x != x ? b : y != y ? a : x < y ? a : y < x ? b : (a.data & 0x8000u) ? a : b; }
__host__ __device__ static inline hipgen_bfloat16 hipgen_hmax(hipgen_bfloat16 a, hipgen_bfloat16 b) { float x = static_cast<float>(a), y = static_cast<float>(b); return x != x ? b : y != y ? a : x > y ? a : y > x ? b : (a.data & 0x8000u) ? b : a; }
__host__ __device__ static inline hipgen_bfloat16 hipgen_hmin(hipgen_bfloat16 a, hipgen_bfloat16 b) { float x = static_cast<float>(a), y = static_cast<float>(b); return x != x ? b : y != y ? a : x < y ? a : y < x ? b : (a.data & 0x8000u) ? a : b; }
__host__ __device__ static inline hipgen_bfloat16 hceil(hipgen_bfloat16 a) { float x = static_cast<float>(a); return ceilf(x); }
__host__ __device__ static inline hipgen_bfloat16 hfloor(hipgen_bfloat16 a) { float x = static_cast<float>(a); return floorf(x); }
__host__ __device__ static inline hipgen_bfloat16 htrunc(hipgen_bfloat16 a) { float x = static_cast<float>(a); return truncf(x); }
__host__ __device__ static inline hipgen_bfloat16 hrint(hipgen_bfloat16 a) { float x = static_cast<float>(a); return rintf(x); }
__host__ __device__ static inline hipgen_bfloat16 hsqrt(hipgen_bfloat16 a) { float x = static_cast<float>(a); return sqrtf(x); }
__host__ __device__ static inline hipgen_bfloat16 hrsqrt(hipgen_bfloat16 a) { float x = static_cast<float>(a); return 1.0f / sqrtf(x); }
__host__ __device__ static inline hipgen_bfloat16 hrcp(hipgen_bfloat16 a) { float x = static_cast<float>(a); return 1.0f / x; }
__host__ __device__ static inline hipgen_bfloat16 hexp(hipgen_bfloat16 a) { float x = static_cast<float>(a); return expf(x); }
__host__ __device__ static inline hipgen_bfloat16 hexp2(hipgen_bfloat16 a) { float x = static_cast<float>(a); return exp2f(x); }
__host__ __device__ static inline hipgen_bfloat16 hexp10(hipgen_bfloat16 a) { float x = static_cast<float>(a); return powf(10.0f, x); }
__host__ __device__ static inline hipgen_bfloat16 hlog(hipgen_bfloat16 a) { float x = static_cast<float>(a); return logf(x); }
__host__ __device__ static inline hipgen_bfloat16 hlog2(hipgen_bfloat16 a) { float x = static_cast<float>(a); return log2f(x); }
__host__ __device__ static inline hipgen_bfloat16 hlog10(hipgen_bfloat16 a) { float x = static_cast<float>(a); return log10f(x); }
__host__ __device__ static inline hipgen_bfloat16 hsin(hipgen_bfloat16 a) { float x = static_cast<float>(a); return sinf(x); }
__host__ __device__ static inline hipgen_bfloat16 hcos(hipgen_bfloat16 a) { float x = static_cast<float>(a); return cosf(x); }
__device__ static inline hipgen_bfloat16 atomicAdd(hipgen_bfloat16* p, hipgen_bfloat16 v) {
  unsigned long long at = reinterpret_cast<unsigned long long>(p);
  unsigned int* w = reinterpret_cast<unsigned int*>(at & ~3ull);
  unsigned int shift = (unsigned int)(at & 2) * 8;
  unsigned int old = *w, assumed;
  hipgen_bfloat16 cur;
  do {
    assumed = old;
    cur.data = (unsigned short)(assumed >> shift);
    hipgen_bfloat16 sum = cur + v;
    old = atomicCAS(w, assumed, (assumed & ~(0xffffu << shift)) | (unsigned int)sum.data << shift);
  } while (assumed != old);
  return cur;
}`

// bfloat162 stands in for CUDA's pair of bfloat16 values before ROCm 5.7,
// whose hip/hip_bfloat16.h has only the scalar class: the same members x
// and y, built from two values, which floats convert to (as "{0.0f, 0.0f}" builds
// CUDA's). Storage and member access port; bf162 intrinsics do not, and
// the table reports each of them.
var bfloat162 = polyfill{name: "hipgen_bfloat162", typ: true, deps: []string{"__nv_bfloat16"},
	why: "ROCm before 5.7 has no paired bfloat16 type; a struct of two bfloat16 values (hipgen_bfloat16, see its note) with CUDA's members x and y, arithmetic and bf162 intrinsics stands in", code: `struct alignas(4) hipgen_bfloat162 {
  hipgen_bfloat16 x, y;
  hipgen_bfloat162() = default;
  __host__ __device__ hipgen_bfloat162(hipgen_bfloat16 a, hipgen_bfloat16 b) : x(a), y(b) {}
  friend __host__ __device__ hipgen_bfloat162 operator+(hipgen_bfloat162 a, hipgen_bfloat162 b) { return hipgen_bfloat162(a.x + b.x, a.y + b.y); }
  friend __host__ __device__ hipgen_bfloat162 operator-(hipgen_bfloat162 a, hipgen_bfloat162 b) { return hipgen_bfloat162(a.x - b.x, a.y - b.y); }
  friend __host__ __device__ hipgen_bfloat162 operator*(hipgen_bfloat162 a, hipgen_bfloat162 b) { return hipgen_bfloat162(a.x * b.x, a.y * b.y); }
  friend __host__ __device__ hipgen_bfloat162 operator/(hipgen_bfloat162 a, hipgen_bfloat162 b) { return hipgen_bfloat162(a.x / b.x, a.y / b.y); }
  friend __host__ __device__ hipgen_bfloat162 operator-(hipgen_bfloat162 a) { return hipgen_bfloat162(-a.x, -a.y); }
  __host__ __device__ hipgen_bfloat162& operator+=(hipgen_bfloat162 b) { return *this = *this + b; }
  __host__ __device__ hipgen_bfloat162& operator-=(hipgen_bfloat162 b) { return *this = *this - b; }
  __host__ __device__ hipgen_bfloat162& operator*=(hipgen_bfloat162 b) { return *this = *this * b; }
  __host__ __device__ hipgen_bfloat162& operator/=(hipgen_bfloat162 b) { return *this = *this / b; }
};
` + bfloat162Intrinsics}

// bfloat162Intrinsics are CUDA's bf162 overloads of the pair intrinsics
// and math functions that HIP has only for __half2 before ROCm 5.7: each
// half as the bf16 intrinsic computes it (see bfloat16Intrinsics).
const bfloat162Intrinsics = `__host__ __device__ static inline hipgen_bfloat162 __hadd2(hipgen_bfloat162 a, hipgen_bfloat162 b) { return a + b; }
__host__ __device__ static inline hipgen_bfloat162 __hsub2(hipgen_bfloat162 a, hipgen_bfloat162 b) { return a - b; }
__host__ __device__ static inline hipgen_bfloat162 __hmul2(hipgen_bfloat162 a, hipgen_bfloat162 b) { return a * b; }
__host__ __device__ static inline hipgen_bfloat162 __h2div(hipgen_bfloat162 a, hipgen_bfloat162 b) { return a / b; }
__host__ __device__ static inline hipgen_bfloat162 __hfma2(hipgen_bfloat162 a, hipgen_bfloat162 b, hipgen_bfloat162 c) { return hipgen_bfloat162(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)); }
__host__ __device__ static inline hipgen_bfloat162 __hneg2(hipgen_bfloat162 a) { return -a; }
__host__ __device__ static inline hipgen_bfloat162 __habs2(hipgen_bfloat162 a) { return hipgen_bfloat162(__habs(a.x), __habs(a.y)); }
__host__ __device__ static inline float __low2float(hipgen_bfloat162 a) { return static_cast<float>(a.x); }
__host__ __device__ static inline float __high2float(hipgen_bfloat162 a) { return static_cast<float>(a.y); }
__host__ __device__ static inline hipgen_bfloat162 h2ceil(hipgen_bfloat162 a) { return hipgen_bfloat162(hceil(a.x), hceil(a.y)); }
__host__ __device__ static inline hipgen_bfloat162 h2floor(hipgen_bfloat162 a) { return hipgen_bfloat162(hfloor(a.x), hfloor(a.y)); }
__host__ __device__ static inline hipgen_bfloat162 h2trunc(hipgen_bfloat162 a) { return hipgen_bfloat162(htrunc(a.x), htrunc(a.y)); }
__host__ __device__ static inline hipgen_bfloat162 h2rint(hipgen_bfloat162 a) { return hipgen_bfloat162(hrint(a.x), hrint(a.y)); }
__host__ __device__ static inline hipgen_bfloat162 h2sqrt(hipgen_bfloat162 a) { return hipgen_bfloat162(hsqrt(a.x), hsqrt(a.y)); }
__host__ __device__ static inline hipgen_bfloat162 h2rsqrt(hipgen_bfloat162 a) { return hipgen_bfloat162(hrsqrt(a.x), hrsqrt(a.y)); }
__host__ __device__ static inline hipgen_bfloat162 h2rcp(hipgen_bfloat162 a) { return hipgen_bfloat162(hrcp(a.x), hrcp(a.y)); }
__host__ __device__ static inline hipgen_bfloat162 h2exp(hipgen_bfloat162 a) { return hipgen_bfloat162(hexp(a.x), hexp(a.y)); }
__host__ __device__ static inline hipgen_bfloat162 h2exp2(hipgen_bfloat162 a) { return hipgen_bfloat162(hexp2(a.x), hexp2(a.y)); }
__host__ __device__ static inline hipgen_bfloat162 h2exp10(hipgen_bfloat162 a) { return hipgen_bfloat162(hexp10(a.x), hexp10(a.y)); }
__host__ __device__ static inline hipgen_bfloat162 h2log(hipgen_bfloat162 a) { return hipgen_bfloat162(hlog(a.x), hlog(a.y)); }
__host__ __device__ static inline hipgen_bfloat162 h2log2(hipgen_bfloat162 a) { return hipgen_bfloat162(hlog2(a.x), hlog2(a.y)); }
__host__ __device__ static inline hipgen_bfloat162 h2log10(hipgen_bfloat162 a) { return hipgen_bfloat162(hlog10(a.x), hlog10(a.y)); }
__host__ __device__ static inline hipgen_bfloat162 h2sin(hipgen_bfloat162 a) { return hipgen_bfloat162(hsin(a.x), hsin(a.y)); }
__host__ __device__ static inline hipgen_bfloat162 h2cos(hipgen_bfloat162 a) { return hipgen_bfloat162(hcos(a.x), hcos(a.y)); }
__device__ static inline hipgen_bfloat162 atomicAdd(hipgen_bfloat162* p, hipgen_bfloat162 v) {
  unsigned int* w = reinterpret_cast<unsigned int*>(p);
  unsigned int old = *w, assumed;
  hipgen_bfloat162 cur;
  do {
    assumed = old;
    cur.x.data = (unsigned short)assumed;
    cur.y.data = (unsigned short)(assumed >> 16);
    hipgen_bfloat162 sum = cur + v;
    old = atomicCAS(w, assumed, (unsigned int)sum.x.data | (unsigned int)sum.y.data << 16);
  } while (assumed != old);
  return cur;
}`

// bfloat16Bits is the polyfill of a reinterpretation between bf16 and
// its 16 bits before ROCm 5.7 (hip_bfloat16's data member holds them).
func bfloat16Bits(cuda, result, params, body string) polyfill {
	return bfloat16Function(cuda, "__nv_bfloat16", "ROCm before 5.7 has only the hip_bfloat16 class, whose data member holds the 16 bits",
		result, params, body)
}

// bfloat162Conversion is the polyfill of a bf162 conversion intrinsic
// before ROCm 5.7; expr is what it returns.
func bfloat162Conversion(cuda, result, params, expr string) polyfill {
	return bfloat16Function(cuda, "__nv_bfloat162", "ROCm before 5.7 has no paired bfloat16 type; this works on hipgen_bfloat162, which stands in for it",
		result, params, "return "+expr+";")
}

// bfloat16Function is the polyfill of the bf16 intrinsic cuda, named
// hipgen_ and the CUDA name without its leading underscores, built on the
// stand-in type dep: result, params and body complete its definition.
func bfloat16Function(cuda, dep, why, result, params, body string) polyfill {
	name := polyfillName(cuda)
	return polyfill{name: name, deps: []string{dep}, why: why,
		code: "__host__ __device__ static inline " + result + " " + name + "(" + params + ") { " + body + " }"}
}

// usePolyfill renames the CUDA name at k when no table entry serves the
// target ROCm and a polyfill exists. It reports whether it did.
func (t *translator) usePolyfill(k int, b []byte) bool {
	p, ok := t.names.polyfills[string(b)]
	// Never a member ("r->saturate(x)"); a type or constant not in
	// another namespace either; a function only where called.
	if !ok || t.isMember(k) || p.typ && t.is(k-1, "::") || !p.typ && !t.is(k+1, "(") {
		return false
	}
	if !p.typ && !reservedName(b) && t.declaresHere(k) {
		// The declaration of a function of the project's own with a name
		// CUDA's legacy functions share ("float saturate(float x) const"):
		// CUDA's reserved names (__ldcs) are renamed in declarations too.
		return false
	}
	if (string(b) == "atomicMax" || string(b) == "atomicMin") && (!t.isSigned64Pointer(k+1) || !t.ver.Less(atomicMinMaxI64From)) {
		return false
	}
	name := string(b)
	if e, ok := t.lookupIdent(b); ok && e.Available(t.ver) && !p.overload && (p.replaces == "" || e.HIP != p.replaces) {
		return false
	}
	if t.definesFunction(name) || p.constant && (t.definesAt()[name] != nil || t.isMacroNameOperand(k)) || p.typ && t.declaresTypeAt(k) {
		return false // the project brings its own
	}
	t.replace(k, p.name)
	t.needRuntime = true
	if p.hasDefinition() || len(p.deps) > 0 {
		t.notePolyfill(name, int(t.tok(k).Start))
	}
	// A name is used often, and the note would say the same each time
	// (llm.c's kernels call __ldcs and __stcs in every file).
	severity := diag.Note
	if p.warn {
		severity = diag.Warning
	}
	msg := name + " became " + p.name + ": " + p.why
	if p.constant {
		msg = p.why // one note for all of them (see mathConstantWhy)
	}
	t.report(k, severity, "polyfill", msg+oncePerFile)
	return true
}

// reservedName reports whether name is one a project does not declare
// for itself: reserved to the implementation (two leading underscores) or
// CUDA's (cuda, cu prefixes).
func reservedName(name []byte) bool {
	return bytes.HasPrefix(name, []byte("__")) || bytes.HasPrefix(name, []byte("cu"))
}

// oncePerFile ends the message of a diagnostic that a file gets once, at
// the first place it applies (see dropRepeats). The walk reports it
// everywhere, so that parts of a file walked apart need not know what the
// parts before them reported.
const oncePerFile = " (reported at the first place in the file only)"

// dropRepeats removes, from diagnostics sorted by position, each one that
// ends with oncePerFile and repeats the check and message of an earlier
// one.
func dropRepeats(ds []diag.Diagnostic) []diag.Diagnostic {
	var seen map[[2]string]bool
	out := ds[:0]
	for _, d := range ds {
		if strings.HasSuffix(d.Message, oncePerFile) {
			key := [2]string{d.Check, d.Message}
			if seen[key] {
				continue
			}
			if seen == nil {
				seen = map[[2]string]bool{}
			}
			seen[key] = true
		}
		out = append(out, d)
	}
	return out
}

// polyfillBlock returns the definitions the file needs, in a stable order,
// and the offset of the first use.
func (t *translator) polyfillBlock() (string, int) {
	if len(t.polyfills) == 0 || t.polyfillRegion {
		return "", -1
	}
	names := make([]string, 0, len(t.polyfills))
	first := -1
	for n, off := range t.polyfills {
		names = append(names, n)
		if first < 0 || off < first {
			first = off
		}
	}
	sort.Strings(names)
	// The definitions in order, dependencies first, each once (two CUDA
	// spellings of one type share one); then the block is written at its
	// final size, without a copy of any definition on the way.
	type entry struct{ name, code string }
	var order []entry
	written := map[string]bool{}
	var add func(n string)
	add = func(n string) {
		p := t.names.polyfills[n]
		if written[p.name] {
			return
		}
		written[p.name] = true
		for _, d := range p.deps {
			add(d)
		}
		if p.hasDefinition() {
			order = append(order, entry{p.name, p.definition()})
		}
	}
	for _, n := range names {
		add(n)
	}
	const guardPrefix = "HIPGEN_POLYFILL_"
	size := len(polyfillBegin) + len(polyfillEnd) + 2
	for _, p := range order {
		size += 2*(len(guardPrefix)+len(p.name)) + len(p.code) + len("#ifndef \n#define \n\n#endif\n")
	}
	var b strings.Builder
	b.Grow(size)
	b.WriteString(polyfillBegin + "\n")
	for _, p := range order {
		guard := guardPrefix + strings.TrimPrefix(strings.ToUpper(p.name), "HIPGEN_")
		b.WriteString("#ifndef ")
		b.WriteString(guard)
		b.WriteString("\n#define ")
		b.WriteString(guard)
		b.WriteString("\n")
		b.WriteString(p.code)
		b.WriteString("\n#endif\n")
	}
	b.WriteString(polyfillEnd + "\n")
	return b.String(), first
}

// polyfillOffset is where the polyfill block goes: after the last
// #include before the first use, so the types the definitions need
// (__half, hip_bfloat16) are declared, but never before hip_runtime.h.
func (t *translator) polyfillOffset(first, runtimeEnd int) int {
	// Only includes at file scope (inside the include guard, if any)
	// count: the block must not land in a conditional block, which would
	// hide it from the uses outside.
	base := t.condDepthAt(t.insertAt)
	off := runtimeEnd
	if t.condDepthAt(off) != base {
		off = t.insertAt
	}
	for _, end := range t.includeEnds {
		if end <= first && end > off && t.condDepthAt(end) == base {
			off = end
		}
	}
	return off
}

// condDepthAt returns how many #if, #ifdef and #ifndef blocks are open at
// the byte offset off.
func (t *translator) condDepthAt(off int) int {
	depth := 0
	for _, sc := range t.scopes {
		k := int(sc)
		if int(t.toks[k].Start) >= off {
			break
		}
		if t.toks[k].Kind != lex.Punct {
			continue // namespace or using
		}
		switch string(t.text(k + 1)) {
		case "if", "ifdef", "ifndef":
			depth++
		case "endif":
			depth--
		}
	}
	return depth
}

// float2bfloat16 converts a float to the bfloat16 stand-in before ROCm
// 5.7; hip_bfloat16's constructor rounds to nearest even, as CUDA's
// __float2bfloat16 and __float2bfloat16_rn do.
var float2bfloat16 = polyfill{name: "hipgen_float2bfloat16", why: "ROCm before 5.7 has only the hip_bfloat16 class, which is built from a float", deps: []string{"__nv_bfloat16"},
	code: `__host__ __device__ static inline hipgen_bfloat16 hipgen_float2bfloat16(float f) { return hipgen_bfloat16(f); }`}

// sparseStatuses are hipSPARSE's statuses by value (hipsparse.h, the same
// in every release that has them): the name, then the header's
// description.
var sparseStatuses = [][2]string{
	{"HIPSPARSE_STATUS_SUCCESS", "function succeeds"},
	{"HIPSPARSE_STATUS_NOT_INITIALIZED", "hipSPARSE was not initialized"},
	{"HIPSPARSE_STATUS_ALLOC_FAILED", "resource allocation failed"},
	{"HIPSPARSE_STATUS_INVALID_VALUE", "unsupported value was passed to the function"},
	{"HIPSPARSE_STATUS_ARCH_MISMATCH", "device architecture not supported"},
	{"HIPSPARSE_STATUS_MAPPING_ERROR", "access to GPU memory space failed"},
	{"HIPSPARSE_STATUS_EXECUTION_FAILED", "GPU program failed to execute"},
	{"HIPSPARSE_STATUS_INTERNAL_ERROR", "an internal hipSPARSE operation failed"},
	{"HIPSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED", "matrix type not supported"},
	{"HIPSPARSE_STATUS_ZERO_PIVOT", "zero pivot was computed"},
	{"HIPSPARSE_STATUS_NOT_SUPPORTED", "operation is not supported"},
	{"HIPSPARSE_STATUS_INSUFFICIENT_RESOURCES", "resources are insufficient"},
}

// sparseStatusText is the polyfill of cusparseGetErrorName (what "name")
// or cusparseGetErrorString ("description") before ROCm 6.0, whose
// hipSPARSE has neither: every cuSPARSE sample's error check calls the
// second. The status is switched on by value, so the polyfill needs no
// enumerator that an older hipSPARSE lacks.
func sparseStatusText(cuda, what string) polyfill {
	name := "hipgen_" + cuda
	var b strings.Builder
	b.WriteString("static inline const char* " + name + "(hipsparseStatus_t s) {\n  switch ((int)s) {\n")
	for i, st := range sparseStatuses {
		text := st[0]
		if what == "description" {
			text = st[1]
		}
		b.WriteString("  case " + strconv.Itoa(i) + ": return \"" + text + "\";\n")
	}
	b.WriteString("  default: return \"unknown hipSPARSE status\";\n  }\n}")
	return polyfill{name: name, why: "hipSPARSE before ROCm 6.0 has no " + strings.Replace(cuda, "cusparse", "hipsparse", 1) + "; a function giving each status's " + what + " stands in", code: b.String()}
}

// randOrdering stands in for cuRAND's curandOrdering_t before ROCm 6.2,
// whose hipRAND has no orderings: the same members with CUDA's values,
// which setRandOrdering takes. NVIDIA's cuRAND samples all set one.
var randOrdering = polyfill{name: "hipgen_curandOrdering_t", typ: true,
	why: "hipRAND before ROCm 6.2 has no orderings; an enumeration with cuRAND's members and values stands in",
	code: `typedef enum hipgen_curandOrdering_t {
  HIPGEN_CURAND_ORDERING_PSEUDO_BEST = 100,
  HIPGEN_CURAND_ORDERING_PSEUDO_DEFAULT = 101,
  HIPGEN_CURAND_ORDERING_PSEUDO_SEEDED = 102,
  HIPGEN_CURAND_ORDERING_PSEUDO_LEGACY = 103,
  HIPGEN_CURAND_ORDERING_PSEUDO_DYNAMIC = 104,
  HIPGEN_CURAND_ORDERING_QUASI_DEFAULT = 201
} hipgen_curandOrdering_t;`}

// randOrderingMember is the stand-in of the cuRAND ordering
// CURAND_ORDERING_<member> before ROCm 6.2: randOrdering's member.
func randOrderingMember(member string) polyfill {
	return polyfill{name: "HIPGEN_CURAND_ORDERING_" + member, typ: true, deps: []string{"curandOrdering_t"},
		why: "hipRAND before ROCm 6.2 has no orderings; the member of hipgen_curandOrdering_t stands in"}
}

// setRandOrdering stands in for curandSetGeneratorOrdering before ROCm
// 6.2, when hipRAND cannot choose an ordering: it does nothing and returns
// success, so a generator keeps hipRAND's own order. Only the order in
// which a generator's numbers come differs: hipRAND's generators never
// give cuRAND's numbers, in any order.
var setRandOrdering = polyfill{name: "hipgen_curandSetGeneratorOrdering", deps: []string{"curandOrdering_t"}, warn: true,
	why: "hipRAND before ROCm 6.2 cannot choose an ordering; a function that does nothing and returns success stands in, so the generator keeps hipRAND's default order (its numbers are never cuRAND's, in any order)",
	code: `static inline hiprandStatus_t hipgen_curandSetGeneratorOrdering(hiprandGenerator_t generator, hipgen_curandOrdering_t order) {
  (void)generator;
  (void)order;
  return HIPRAND_STATUS_SUCCESS;
}`}

// cacheHint is the polyfill of one of CUDA's loads (__ldcs and the like)
// or stores (__stcs and the like) with a cache hint, which HIP lacks:
// ROCm has __ldca, __ldcg and __ldcs for __half and __half2 only, so
// llm.c's __ldcs of a float does not compile, and its __stcs is unknown.
// The access without the hint stands in, for every type: the hint decides
// how the line is cached, never the value. __ldcv, which fetches the value
// again each time, reads through a volatile pointer, so that the compiler
// does not reuse an earlier read either.
func cacheHint(op string, store bool) polyfill {
	name := "hipgen_" + op
	why := "HIP has no loads and stores with a cache hint (ROCm has __ldca, __ldcg and __ldcs for __half and __half2 only); the plain access stands in, for every type: the hint decides how the line is cached, not the value"
	code := "template <class T>\n__device__ static inline T " + name + "(const T* p) { return *p; }"
	switch {
	case store:
		code = "template <class T, class V>\n__device__ static inline void " + name + "(T* p, V v) { *p = v; }"
	case op == "ldcv":
		why = "HIP has no loads and stores with a cache hint; a volatile read stands in, which fetches the value again each time, as __ldcv does"
		code = "template <class T>\n__device__ static inline T " + name + "(const T* p) { return *(const volatile T*)p; }"
	}
	return polyfill{name: name, why: why, code: code, overload: true}
}

// minmax is the polyfill of CUDA's typed integer min and max functions.
// legacyWrapper stands in for one of CUDA's legacy device functions
// without the leading underscores (device_functions.hpp: saturate,
// mul24, mulhi, float_as_int, ...), deprecated in CUDA 11 and gone in CUDA
// 13, each a call of the intrinsic HIP has (__saturatef, __mul24, ...):
// defs are its overloads, "type name(params) { body }", written with the
// name hipgen_ gives it.
func legacyWrapper(name string, defs ...string) polyfill {
	var b strings.Builder
	for i, d := range defs {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString("__device__ static inline " + strings.Replace(d, " "+name+"(", " hipgen_"+name+"(", 1))
	}
	return polyfill{name: "hipgen_" + name, code: b.String(),
		why: "HIP has no " + name + ", one of CUDA's legacy device functions (deprecated in CUDA 11, gone in CUDA 13); it calls the intrinsic HIP has, as CUDA's does"}
}

// roundMode stands in for CUDA's enum cudaRoundMode (device_types.h),
// which the legacy conversions with a rounding mode take and HIP lacks:
// the same enumerators in the same order.
var roundMode = polyfill{name: "hipgen_round_mode", typ: true,
	why:  "HIP has no cudaRoundMode, which CUDA's legacy conversions (float2int, int2float, ...) take; an enum of the same enumerators stands in",
	code: "enum hipgen_round_mode { hipgen_RoundNearest, hipgen_RoundZero, hipgen_RoundPosInf, hipgen_RoundMinInf };"}

// roundModeWrapper stands in for one of CUDA's legacy conversions that
// take a rounding mode (float2int, float2uint, int2float, uint2float),
// which call the intrinsic of that rounding (__float2int_rn, _rz, _ru,
// _rd), with CUDA's default mode (zero to an integer, nearest to float).
func roundModeWrapper(name, ret, arg, def, intrinsic string) polyfill {
	p := legacyWrapper(name, ret+" "+name+"("+arg+" a, hipgen_round_mode mode = hipgen_"+strings.TrimPrefix(def, "cuda")+") {\n"+
		"  return mode == hipgen_RoundNearest ? "+intrinsic+"_rn(a) : mode == hipgen_RoundZero ? "+intrinsic+"_rz(a) : mode == hipgen_RoundPosInf ? "+intrinsic+"_ru(a) : "+intrinsic+"_rd(a);\n}")
	p.deps = []string{"cudaRoundMode"}
	return p
}

func minmax(name, typ, op string) polyfill {
	return polyfill{name: "hipgen_" + name, why: "HIP has no " + name + "; it is min or max on " + typ,
		code: "__host__ __device__ static inline " + typ + " hipgen_" + name + "(" + typ + " a, " + typ + " b) { return a " + op + " b ? a : b; }"}
}

// declaresTypeAt reports whether the name at j is the one a type
// declaration declares: "using name = ...;", "typedef ... name;" (with a
// struct's body, "typedef struct { ... } name;"), or "struct name {"
// (class, union, enum alike). A project's own declaration of a CUDA type
// name (DeepSpeed's "using __nv_bfloat162 = __half2;" where bfloat16 is not
// available, ggml's HIP header's "typedef hip_bfloat16 nv_bfloat16;") keeps
// the name: renamed, it would be a second definition of the stand-in.
func (t *translator) declaresTypeAt(j int) bool {
	switch {
	case t.is(j-1, "using") && t.isByte(j+1, '='):
		return true
	case t.is(j-1, "struct") || t.is(j-1, "class") || t.is(j-1, "union") || t.is(j-1, "enum"):
		return t.isByte(j+1, '{') || t.isByte(j+1, ':') && !t.is(j+1, "::")
	case t.isByte(j+1, ';'):
		// A typedef starts the statement, which may hold a body.
		for i := j - 1; i >= 0 && !t.isByte(i, ';') && !t.isByte(i, '{') && !t.tok(i).Directive; i-- {
			if t.isByte(i, '}') {
				if i = t.matchingBack(i); i < 0 {
					return false
				}
				continue // from before the brace that opens the body
			}
			if t.is(i, "typedef") {
				return true
			}
		}
	}
	return false
}

// definitions returns the offsets of the definitions of functions called
// name in the file: a name after a type, its parameter list closed right
// before a '{'.
func (t *translator) definitions(name string) []int32 {
	var at []int32
	if !t.mayName(name) {
		return nil
	}
	for _, o := range t.br.BraceAfter {
		// The type is code: a word ending a directive line before the
		// name ("#pragma once" then "umin(){") is no type.
		if o >= 2 && t.toks[o-1].Kind == lex.Ident && string(t.text(int(o-1))) == name && !t.toks[o-2].Directive &&
			(t.toks[o-2].Kind == lex.Ident || t.isByte(int(o-2), '*') || t.isByte(int(o-2), '&') || t.isByte(int(o-2), '>')) {
			if redefinedBuiltin(name, string(t.text(int(o-2)))) {
				continue // becomes hipgen_own_atomicMax (see redefinesBuiltin): HIP's serve the calls
			}
			at = append(at, t.toks[o-1].Start)
		}
	}
	return at
}

// definesFunction reports whether the file defines a function called name
// (a type before it, a body after its parameters) outside the blocks hipcc
// never compiles ("#if 0", llm.c's bf16 __ldcs for nvcc before 12). The
// definitions are collected in one pass, the first time they are needed.
// While fileMacros replays the #if directives (which asks this to judge a
// block), every definition counts.
func (t *translator) definesFunction(name string) bool {
	f := t.facts
	// The definitions of each name asked about are collected the first
	// time (a file asks about a few names, and defines many functions).
	f.definedMu.Lock()
	at, found := f.defined[name]
	if !found {
		at = t.definitions(name)
		if f.defined == nil {
			f.defined = map[string][]int32{}
		}
		f.defined[name] = at
	}
	f.definedMu.Unlock()
	if len(at) == 0 || t.replay != nil {
		return len(at) > 0
	}
	t.fileMacros()
	for _, off := range at {
		live := true
		for _, r := range t.macroFacts.dead {
			if off >= r[0] && off < r[1] {
				live = false
				break
			}
		}
		if live {
			return true
		}
	}
	return false
}

// declaresFunction reports whether the file declares or defines a
// function (a member function too) named name: the name after a type
// word, *, & or >, and before a '(', on no directive line. It finds what
// definesFunction misses (int size() const { ... }) and declarations.
func (t *translator) declaresFunction(name string) bool {
	f := t.facts
	f.declaredOnce.Do(func() {
		f.declared = map[string]bool{}
		for j := 1; j+1 < len(t.toks); j++ {
			tk := t.toks[j]
			if tk.Kind != lex.Ident || tk.Directive || !t.isByte(j+1, '(') {
				continue
			}
			p := t.toks[j-1]
			if p.Kind == lex.Ident && !controlWords()[string(t.text(j-1))] && !cppKeywords()[string(t.text(j-1))] ||
				t.isByte(j-1, '*') || t.isByte(j-1, '&') || t.isByte(j-1, '>') {
				f.declared[string(t.text(j))] = true
			}
		}
	})
	return f.declared[name]
}

// atomicMinMax64 is a signed 64-bit atomic min or max built on atomicCAS;
// a template, since int64_t is long, not long long, on Linux.
// atomicWrapSystem is CUDA's atomicInc_system or atomicDec_system, which
// HIP lacks (it has atomicInc and atomicDec, and the other atomics in
// _system form): a loop of atomicCAS_system, which is system-wide too,
// storing what CUDA's would (next, of assumed and the bound v).
func atomicWrapSystem(which, next, what string) polyfill {
	name := "hipgen_atomic" + which + "_system"
	return polyfill{name: name, why: "HIP has no atomic" + which + "_system; a loop of atomicCAS_system (system-wide as well) does " + what + " as CUDA's does",
		code: "__device__ static inline unsigned int " + name + `(unsigned int* p, unsigned int v) {
  unsigned int old = *p, assumed;
  do {
    assumed = old;
    old = atomicCAS_system(p, assumed, ` + next + `);
  } while (assumed != old);
  return old;
}`}
}

func atomicMinMax64(which, keep string) string {
	return "template <class T>\n__device__ static inline T hipgen_atomic" + which + `_i64(T* p, T v) {
  static_assert(sizeof(T) == 8, "64-bit integers only");
  unsigned long long* a = (unsigned long long*)p;
  unsigned long long old = *a, assumed;
  do {
    assumed = old;
    if ((T)assumed ` + keep + ` v) break;
    old = atomicCAS(a, assumed, (unsigned long long)v);
  } while (assumed != old);
  return (T)old;
}`
}

// isSigned64Pointer reports whether the call's first argument starts with
// a cast to a signed 64-bit pointer: "(long long*)" or "(long long int *)"
// or "(int64_t*)". Only then does atomicMin or atomicMax need the polyfill.
func (t *translator) isSigned64Pointer(open int) bool {
	j := open + 1
	if !t.is(j, "(") {
		return false
	}
	j++
	switch {
	case t.is(j, "long") && t.is(j+1, "long"):
		j += 2
		if t.is(j, "int") {
			j++
		}
	case t.is(j, "int64_t") || t.is(j, "std") && t.is(j+1, "::") && t.is(j+2, "int64_t"):
		if t.is(j, "std") {
			j += 2
		}
		j++
	default:
		return false
	}
	return t.is(j, "*") && t.is(j+1, ")")
}

// atomicAddHalfKey is the polyfill key of atomicAddHalf (not an
// identifier: no call is renamed to it).
const atomicAddHalfKey = "(atomicAdd of __half and __half2)"

// atomicAddHalf adds CUDA's atomicAdd of a __half and of a __half2, which
// ROCm lacks (5.2 and 6.2 have atomicAdd for integers, float and double
// only, and unsafeAtomicAdd of a __half2 for some GPUs): BBuf's
// fast_atomic_add kernels did not compile. Each is a compare-and-swap loop
// on the aligned 32-bit word that holds the value, the sum rounded to half
// as CUDA's is; a __half2 is updated whole, which CUDA guarantees only for
// each half. The calls stay as they are, since a token-level translator
// cannot tell a __half pointer from a float one (templates call atomicAdd
// with T* for both): the stand-ins are overloads, templates whose
// parameter must be the exact type, so that a ROCm which defines plain
// functions of these signatures has its own preferred, and a project's own
// overload, or a macro named atomicAdd, wins as well.
var atomicAddHalf = polyfill{name: "hipgen_atomicadd_half",
	why: "HIP has no atomicAdd of a __half or a __half2; compare-and-swap loops on the 32-bit word that holds the value stand in, as overloads, so that the calls stay as they are",
	code: `#if !defined(atomicAdd)
#include <hip/hip_fp16.h>
#include <type_traits>
template <class H>
__device__ static inline typename std::enable_if<std::is_same<H, __half>::value, __half>::type
atomicAdd(H* p, typename std::enable_if<std::is_same<H, __half>::value, __half>::type v) {
  unsigned long long at = reinterpret_cast<unsigned long long>(p);
  unsigned int* w = reinterpret_cast<unsigned int*>(at & ~3ull);
  unsigned int shift = (unsigned int)(at & 2) * 8;
  unsigned int old = *w, assumed;
  __half cur;
  do {
    assumed = old;
    cur = __ushort_as_half((unsigned short)(assumed >> shift));
    unsigned int sum = __half_as_ushort(__hadd(cur, v));
    old = atomicCAS(w, assumed, (assumed & ~(0xffffu << shift)) | sum << shift);
  } while (assumed != old);
  return cur;
}
template <class H>
__device__ static inline typename std::enable_if<std::is_same<H, __half2>::value, __half2>::type
atomicAdd(H* p, typename std::enable_if<std::is_same<H, __half2>::value, __half2>::type v) {
  unsigned int* w = reinterpret_cast<unsigned int*>(p);
  unsigned int old = *w, assumed;
  __half2 cur;
  do {
    assumed = old;
    cur = __halves2half2(__ushort_as_half((unsigned short)assumed), __ushort_as_half((unsigned short)(assumed >> 16)));
    __half2 sum = __hadd2(cur, v);
    old = atomicCAS(w, assumed, (unsigned int)__half_as_ushort(__low2half(sum)) | (unsigned int)__half_as_ushort(__high2half(sum)) << 16);
  } while (assumed != old);
  return cur;
}
#endif`}

// atomicI64Key is the polyfill key of atomicI64 (not an identifier: no
// call is renamed to it).
const atomicI64Key = "(atomicAnd, atomicOr, atomicXor, atomicMax and atomicMin of long long)"

// atomicI64 adds CUDA's atomicAnd, atomicOr and atomicXor of a long long,
// which HIP lacks (ROCm 5.2 to 6.2 have them for int, unsigned int and
// unsigned long long only), and, before ROCm 5.7, atomicMax and atomicMin
// of one. As with atomicAddHalf, the calls stay as they are, since a
// token-level translator cannot tell a long long pointer from another
// (atomicMax((long long*)p, v), which it can, becomes hipgen_atomicmax_i64
// as well): the stand-ins are overloads, templates whose parameter must
// be exactly long long, so that a ROCm that defines plain functions of
// these signatures has its own preferred; the value's type is not deduced,
// so that an int argument converts, as with CUDA's. The bitwise ones go
// through the unsigned long long functions (the same bits); max and min
// are compare-and-swap loops.
var atomicI64 = polyfill{name: "hipgen_atomic_i64",
	why: "HIP has no atomicAnd, atomicOr or atomicXor of a long long (only of unsigned long long), nor, before ROCm 5.7, atomicMax or atomicMin of one; overloads for long long stand in (the bitwise ones through the unsigned long long functions, max and min as compare-and-swap loops), so that the calls stay as they are",
	code: `#include <type_traits>
#define HIPGEN_I64(T) typename std::enable_if<std::is_same<T, long long>::value, long long>::type
#if !defined(atomicAnd) && !defined(atomicOr) && !defined(atomicXor)
#define HIPGEN_I64_BITS(fn) \
  template <class T> \
  __device__ static inline HIPGEN_I64(T) fn(T* p, HIPGEN_I64(T) v) { \
    return (long long)fn((unsigned long long*)p, (unsigned long long)v); \
  }
HIPGEN_I64_BITS(atomicAnd)
HIPGEN_I64_BITS(atomicOr)
HIPGEN_I64_BITS(atomicXor)
#undef HIPGEN_I64_BITS
#endif
#if !(` + hipVersionAtLeast57 + `) && !defined(atomicMax) && !defined(atomicMin)
#define HIPGEN_I64_MINMAX(fn, keep) \
  template <class T> \
  __device__ static inline HIPGEN_I64(T) fn(T* p, HIPGEN_I64(T) v) { \
    unsigned long long* a = (unsigned long long*)p; \
    unsigned long long old = *a, assumed; \
    do { \
      assumed = old; \
      if ((long long)assumed keep v) break; \
      old = atomicCAS(a, assumed, (unsigned long long)v); \
    } while (assumed != old); \
    return (long long)old; \
  }
HIPGEN_I64_MINMAX(atomicMax, >=)
HIPGEN_I64_MINMAX(atomicMin, <=)
#undef HIPGEN_I64_MINMAX
#endif
#undef HIPGEN_I64`}

// atomicMinMaxI64From is the first ROCm release with atomicMax and
// atomicMin of a long long (ROCm/clr's amd_hip_atomic.h at rocm-5.7.0).
var atomicMinMaxI64From = Version{Major: 5, Minor: 7}

// fileNamesLongLong reports whether the file's code spells the type long
// long: only then may one of its atomic calls take one (see atomicI64).
// Comments and strings do not count, nor hipgen's own warp helpers in an
// output translated again (their ballots are unsigned long long), whose
// tokens dropHelperBlocks leaves out.
func (t *translator) fileNamesLongLong() bool {
	return t.facts.longLong.get(func() bool {
		if !containsText(t.src, "long") {
			return false
		}
		for k := 1; k < len(t.toks); k++ {
			if t.is(k, "long") && t.is(k-1, "long") {
				return true
			}
		}
		return false
	})
}

// fileNamesHalf reports whether the file names CUDA's half-precision
// types or includes cuda_fp16.h: only then may an atomicAdd in it take one
// (see atomicAddHalf): where halfTypeAt says a half type is named.
func (t *translator) fileNamesHalf() bool {
	return t.facts.half.get(func() bool {
		if !containsText(t.src, "half") {
			return false
		}
		if containsText(t.src, "cuda_fp16.h") {
			return true
		}
		for k, tk := range t.toks {
			if tk.Kind != lex.Ident {
				continue
			}
			switch string(t.src[tk.Start:tk.End]) {
			case "__half", "__half2", "half", "half2":
				if t.halfTypeAt(k) {
					return true
				}
			}
		}
		return false
	})
}

// mixedMinMaxKey is the polyfill key of mixedMinMax (not an identifier:
// no call is renamed to it).
const mixedMinMaxKey = "(min and max of mixed signs)"

// mixedMinMax adds CUDA's min and max for a signed and an unsigned integer
// of one size (int, long, long long), which compare in the unsigned type.
// HIP has none, and clang's HIP headers then take a template of their own
// that converts both to double: llm.c's x[min(C - 1, i + blockDim.x)] did
// not compile (an index that is no integer), and where such a call
// compiles it computes in floating point. The stand-ins are templates in
// the unsigned parameter, more specialised than clang's, with __device__
// and __host__ versions (a __host__ __device__ one would lose to clang's
// __device__ template in device code; HIP-CPU, where both are plain
// functions, gets one); a ROCm that adds plain functions of
// these signatures has its own preferred, and a project that defines min
// or max as a macro keeps it.
//
// On the host, HIP's headers (clang 15's) have min and max of two ints
// only, where CUDA has them for every integer type: two longs were cut to
// ints there, and with the stand-ins above a call with two longs (HeCBench's
// lrn, in a lambda of a kernel) was ambiguous between the two orders. Host
// versions for two unsigned ints, longs, long longs and their unsigned
// types join them: templates of no deduced parameter, which a plain
// function of the same signature (a newer clang's, a project's) is
// preferred to, and which are preferred to std::min and std::max where a
// using-directive brings those in (more specialised; same result).
var mixedMinMax = polyfill{name: "hipgen_mixed_minmax",
	why: "HIP has no min or max of a signed and an unsigned integer, nor host ones of two integers of a type other than int; CUDA's, comparing a signed and an unsigned integer in the unsigned type, stand in",
	code: `#if !defined(min) && !defined(max)
#define HIPGEN_MIXED_SIGN(space, fn, op, S, U) \
  template <class T, typename std::enable_if<std::is_same<T, S>::value, int>::type = 0> \
  space static inline U fn(T a, U b) { return (U)a op b ? (U)a : b; } \
  template <class T, typename std::enable_if<std::is_same<T, S>::value, int>::type = 0> \
  space static inline U fn(U a, T b) { return a op (U)b ? a : (U)b; }
#define HIPGEN_MIXED_SIGN_ALL(space) \
  HIPGEN_MIXED_SIGN(space, min, <, int, unsigned int) HIPGEN_MIXED_SIGN(space, max, >, int, unsigned int) \
  HIPGEN_MIXED_SIGN(space, min, <, long, unsigned long) HIPGEN_MIXED_SIGN(space, max, >, long, unsigned long) \
  HIPGEN_MIXED_SIGN(space, min, <, long long, unsigned long long) HIPGEN_MIXED_SIGN(space, max, >, long long, unsigned long long)
#define HIPGEN_HOST_SAME(T) \
  template <int = 0> __host__ static inline T min(T a, T b) { return a < b ? a : b; } \
  template <int = 0> __host__ static inline T max(T a, T b) { return a > b ? a : b; }
#if defined(__HIP_CPU_RT__)
HIPGEN_MIXED_SIGN_ALL()
#else
HIPGEN_MIXED_SIGN_ALL(__device__)
HIPGEN_MIXED_SIGN_ALL(__host__)
HIPGEN_HOST_SAME(unsigned int) HIPGEN_HOST_SAME(long) HIPGEN_HOST_SAME(unsigned long)
HIPGEN_HOST_SAME(long long) HIPGEN_HOST_SAME(unsigned long long)
#endif
#undef HIPGEN_HOST_SAME
#undef HIPGEN_MIXED_SIGN_ALL
#undef HIPGEN_MIXED_SIGN
#endif`}

// shuffleAnyKey is the polyfill key of shuffleAny.
const shuffleAnyKey = "(warp shuffles of half and bfloat16 values)"

// shuffleAny adds warp shuffles of any trivially copyable value that is no
// integer or floating-point number, for files that name half or bfloat16
// types: CUDA's __shfl*_sync take __half, __half2 and the bf16 types, HIP's
// __shfl* (ROCm 5.2) integers and floating point only, so that a __half
// argument converts to several of them and hipcc finds the call ambiguous
// (HeCBench's mxfp4). The stand-ins move the value 32 bits at a time
// through HIP's own shuffle, as CUDA does; they are templates, which a
// ROCm's plain overloads for __half (6.2 has some) are preferred to. The
// calls stay as the translation wrote them. HIP-CPU, whose shuffles are
// templates themselves, gets none.
var shuffleAny = polyfill{name: "hipgen_shuffle_any",
	why: "HIP's warp shuffles take integers and floating point only; overloads for other trivially copyable values (__half, __half2, bfloat16), moving them 32 bits at a time through HIP's, stand in, so that the calls stay as they are",
	code: `#if !defined(__HIP_CPU_RT__)
#include <type_traits>
#define HIPGEN_SHUFFLE_ANY(name, Arg) \
  template <class T, typename std::enable_if<!std::is_arithmetic<T>::value && std::is_trivially_copyable<T>::value, int>::type = 0> \
  __device__ static inline T name(const T& v, Arg a, int width = warpSize) { \
    constexpr unsigned int n = (sizeof(T) + sizeof(int) - 1) / sizeof(int); \
    int w[n] = {}; \
    __builtin_memcpy(w, &v, sizeof(T)); \
    for (unsigned int i = 0; i < n; ++i) w[i] = name(w[i], a, width); \
    T r; \
    __builtin_memcpy(&r, w, sizeof(T)); \
    return r; \
  }
HIPGEN_SHUFFLE_ANY(__shfl, int)
HIPGEN_SHUFFLE_ANY(__shfl_up, unsigned int)
HIPGEN_SHUFFLE_ANY(__shfl_down, unsigned int)
HIPGEN_SHUFFLE_ANY(__shfl_xor, int)
#undef HIPGEN_SHUFFLE_ANY
#endif`}

// halfTanh stands in for CUDA 12.8's hyperbolic tangent of __half and
// __half2 (htanh, h2tanh and their _approx forms, which FlashInfer's
// kernels in HeCBench's attentionMultiHeadKVCache call): no HIP release
// has one. tanhf of the value, rounded to half once, is what CUDA's
// htanh computes; its _approx forms use an approximate instruction whose
// results may differ from that in the last place.
var halfTanh = polyfill{name: "hipgen_htanh",
	why: "no HIP release has the hyperbolic tangent of __half or __half2 (CUDA 12.8 added it); tanhf of each value, rounded to half, stands in",
	code: `#include <hip/hip_fp16.h>
__device__ static inline __half hipgen_htanh(__half a) { return __float2half(tanhf(__half2float(a))); }
__device__ static inline __half2 hipgen_h2tanh(__half2 a) {
  return __halves2half2(hipgen_htanh(__low2half(a)), hipgen_htanh(__high2half(a)));
}`}

// addressSpaces stands in for CUDA's conversions between generic
// addresses and those of one memory space (__cvta_generic_to_shared and
// the rest), which HIP lacks. Kernels give the shared address of a buffer
// to inline PTX (cp.async, ldmatrix), which is reported; but the calls
// also sit in blocks that only hipcc's host pass compiles (FlashInfer's
// "#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800", HeCBench's
// attentionMultiHeadKVCache), where an undeclared name fails the whole
// unit. AMD GPUs have the same spaces (global 1, LDS 3, constant 4,
// private 5): a cast to a pointer of the space gives its address there,
// the LDS offset for shared memory, as ds_ instructions take it. HIP-CPU
// has one memory: the address is the pointer, all 64 bits of it (so a
// shared address kept in 32 bits, as CUDA code does, is lost there).
var addressSpaces = polyfill{name: "hipgen_cvta_generic_to_shared",
	why: "HIP has no conversions between generic and memory-space addresses; casts to pointers of the AMD GPU's address space (LDS 3 for shared, global 1, constant 4, private 5 for local) stand in, and give the address an AMD instruction of that space takes",
	code: `#if defined(__HIP_CPU_RT__)
#define HIPGEN_CVTA(space, n) \
  __device__ static inline size_t hipgen_cvta_generic_to_##space(const void* p) { return (size_t)p; } \
  __device__ static inline void* hipgen_cvta_##space##_to_generic(size_t a) { return (void*)a; }
#else
#define HIPGEN_CVTA(space, n) \
  __device__ static inline size_t hipgen_cvta_generic_to_##space(const void* p) { \
    return (size_t)(const __attribute__((address_space(n))) void*)p; \
  } \
  __device__ static inline void* hipgen_cvta_##space##_to_generic(size_t a) { \
    return (void*)(__attribute__((address_space(n))) void*)a; \
  }
#endif
HIPGEN_CVTA(global, 1)
HIPGEN_CVTA(shared, 3)
HIPGEN_CVTA(constant, 4)
HIPGEN_CVTA(local, 5)
#undef HIPGEN_CVTA`}

// halfHostKey is the polyfill key of halfHost.
const halfHostKey = "(host arithmetic of half values)"

// halfHost adds the arithmetic, compound assignments, increments and
// comparisons of __half, the arithmetic of __half2, and the intrinsics
// that CUDA has for both host and device (__hadd, __hmul, __hlt, __habs,
// __hisnan, ...) to host code: CUDA 12.2 and later declare them __host__
// __device__, HIP (ROCm 5.2 to 6.4) __device__ only, so a CPU reference
// loop over __half values (HeCBench's nlll) compiles with nvcc and not
// with hipcc. Each goes through float and rounds once to half, as CUDA's
// host versions do. They are templates whose parameters must be the exact
// types: a mixed
// expression (a __half times a float), which HIP's conversions already
// make ambiguous, stays as it was, and a ROCm's or the project's own plain
// operators are preferred to them. Device code keeps HIP's operators (a
// __host__ function is never a candidate there). HIP-CPU, whose __half is
// host arithmetic already, gets none.
var halfHost = polyfill{name: "hipgen_half_host",
	why: "CUDA 12.2 and later have the operators of __half and __half2 in host code too, HIP in device code only; host operators that compute through float and round once to half, as CUDA's do, stand in",
	code: `#if !defined(__HIP_CPU_RT__)
#include <hip/hip_fp16.h>
#include <type_traits>
#define HIPGEN_HALF_HOST(T) template <class A, class B, typename std::enable_if<std::is_same<A, T>::value && std::is_same<B, T>::value, int>::type = 0>
#define HIPGEN_HALF_HOST1 template <class A, typename std::enable_if<std::is_same<A, __half>::value, int>::type = 0>
#define HIPGEN_HALF_HOST_OP(op) \
  HIPGEN_HALF_HOST(__half) __host__ static inline __half operator op(const A& a, const B& b) { \
    return __half(static_cast<float>(a) op static_cast<float>(b)); \
  } \
  HIPGEN_HALF_HOST(__half) __host__ static inline __half& operator op##=(A& a, const B& b) { return a = a op b; } \
  HIPGEN_HALF_HOST(__half2) __host__ static inline __half2 operator op(const A& a, const B& b) { \
    return __halves2half2(__low2half(a) op __low2half(b), __high2half(a) op __high2half(b)); \
  } \
  HIPGEN_HALF_HOST(__half2) __host__ static inline __half2& operator op##=(A& a, const B& b) { return a = a op b; }
#define HIPGEN_HALF_HOST_CMP(op) \
  HIPGEN_HALF_HOST(__half) __host__ static inline bool operator op(const A& a, const B& b) { \
    return static_cast<float>(a) op static_cast<float>(b); \
  }
HIPGEN_HALF_HOST_OP(+) HIPGEN_HALF_HOST_OP(-) HIPGEN_HALF_HOST_OP(*) HIPGEN_HALF_HOST_OP(/)
HIPGEN_HALF_HOST_CMP(==) HIPGEN_HALF_HOST_CMP(!=) HIPGEN_HALF_HOST_CMP(<) HIPGEN_HALF_HOST_CMP(>)
HIPGEN_HALF_HOST_CMP(<=) HIPGEN_HALF_HOST_CMP(>=)
HIPGEN_HALF_HOST1 __host__ static inline __half operator-(const A& a) { return __half(-static_cast<float>(a)); }
HIPGEN_HALF_HOST1 __host__ static inline __half operator+(const A& a) { return a; }
HIPGEN_HALF_HOST1 __host__ static inline __half& operator++(A& a) { return a = __half(static_cast<float>(a) + 1.0f); }
HIPGEN_HALF_HOST1 __host__ static inline __half& operator--(A& a) { return a = __half(static_cast<float>(a) - 1.0f); }
HIPGEN_HALF_HOST1 __host__ static inline __half operator++(A& a, int) { __half r = a; ++a; return r; }
HIPGEN_HALF_HOST1 __host__ static inline __half operator--(A& a, int) { __half r = a; --a; return r; }
#define HIPGEN_HALF_HOST_FN(name, op) \
  HIPGEN_HALF_HOST(__half) __host__ static inline __half name(const A& a, const B& b) { return a op b; }
HIPGEN_HALF_HOST_FN(__hadd, +) HIPGEN_HALF_HOST_FN(__hsub, -) HIPGEN_HALF_HOST_FN(__hmul, *) HIPGEN_HALF_HOST_FN(__hdiv, /)
#define HIPGEN_HALF_HOST_CMPFN(name, op) \
  HIPGEN_HALF_HOST(__half) __host__ static inline bool name(const A& a, const B& b) { return a op b; }
HIPGEN_HALF_HOST_CMPFN(__heq, ==) HIPGEN_HALF_HOST_CMPFN(__hne, !=) HIPGEN_HALF_HOST_CMPFN(__hlt, <)
HIPGEN_HALF_HOST_CMPFN(__hle, <=) HIPGEN_HALF_HOST_CMPFN(__hgt, >) HIPGEN_HALF_HOST_CMPFN(__hge, >=)
HIPGEN_HALF_HOST1 __host__ static inline __half __hneg(const A& a) { return -a; }
HIPGEN_HALF_HOST1 __host__ static inline __half __habs(const A& a) { return __half(__builtin_fabsf(static_cast<float>(a))); }
HIPGEN_HALF_HOST1 __host__ static inline bool __hisnan(const A& a) { return static_cast<float>(a) != static_cast<float>(a); }
#undef HIPGEN_HALF_HOST_CMPFN
#undef HIPGEN_HALF_HOST_FN
#undef HIPGEN_HALF_HOST_CMP
#undef HIPGEN_HALF_HOST_OP
#undef HIPGEN_HALF_HOST1
#undef HIPGEN_HALF_HOST
#endif`}

// halfInHostCode brings halfHost to a file whose host code names a half
// type at k (a host function's body, or a __host__ __device__ one's), or
// that gives it another name (typedef, using) for any code to use, other
// than as a pointer's or in sizeof, the ways host code passes buffers of
// halves on. Every such place reports (see oncePerFile).
func (t *translator) halfInHostCode(k int) {
	if t.isByte(k+1, '*') || t.isByte(k-1, '(') && t.is(k-2, "sizeof") || !t.halfTypeAt(k) {
		return
	}
	if body := t.functionBody(k); body >= 0 {
		if device, host := t.declaredSpace(body); device && !host {
			return
		}
	} else if !t.typeAlias(k) {
		return
	}
	t.halfHostNamed(k)
}

// halfHostNamed brings halfHost for a half type that host code names at
// k, or that the translation names there.
func (t *translator) halfHostNamed(k int) {
	t.notePolyfill(halfHostKey, int(t.tok(k).Start))
	t.needRuntime = true
	t.report(k, diag.Note, "polyfill", "host code may compute with the half type named here: "+halfHost.why+oncePerFile)
}

// typeAlias reports whether the k-th token, outside any function body, is
// in a typedef or an alias declaration (using X = ...): HeCBench's
// softmax-fused names __half only in "typedef __half Half;", and its host
// code computes with Half.
func (t *translator) typeAlias(k int) bool {
	for j := t.declarationStart(k, 32); j < k; j++ {
		if t.is(j, "typedef") || t.isByte(j, '=') && t.tok(j-1).Kind == lex.Ident && t.is(j-2, "using") {
			return true
		}
	}
	return false
}

// halfTypeAt reports whether the identifier at k (__half, __half2, half
// or half2) names the type: __half and __half2 always do; half and half2,
// also the names of variables ("int half = n / 2;"), only where a type
// goes: before a name, *, & or >, in a cast, or as a template argument.
func (t *translator) halfTypeAt(k int) bool {
	switch string(t.text(k)) {
	case "__half", "__half2":
		return true
	}
	return t.tok(k+1).Kind == lex.Ident || t.isByte(k+1, '*') || t.isByte(k+1, '&') || t.isByte(k+1, '>') ||
		t.isByte(k-1, '(') && t.isByte(k+1, ')') || t.isByte(k-1, '<') && t.isByte(k+1, ',')
}

// shuffleOfAnyType brings shuffleAny to a file with a shuffle at k that
// names half or bfloat16 types. Every shuffle reports (see oncePerFile).
func (t *translator) shuffleOfAnyType(k int) {
	if !t.fileNamesHalf() && !containsText(t.src, "bfloat16") {
		return
	}
	t.notePolyfill(shuffleAnyKey, int(t.tok(k).Start))
	t.report(k, diag.Note, "polyfill", "a warp shuffle in a file that names half or bfloat16 types: "+shuffleAny.why+oncePerFile)
}

// double2half stands in for CUDA's __double2half, which no HIP release
// has (ROCm/clr's amd_hip_fp16.h to 6.x): the double rounded once to the
// nearest half, ties to even. Rounding to float first would round twice;
// so the float is made odd when the conversion was inexact (round to odd:
// the float keeps that the double lay between two floats), and the float
// to half conversion then rounds as a direct one would, float having more
// than two bits beyond half's. NaN becomes CUDA's 0x7fff.
var double2half = polyfill{name: "hipgen_double2half",
	why: "HIP has no __double2half; a conversion that rounds the double once to the nearest half, as CUDA's does, stands in",
	code: `#include <hip/hip_fp16.h>
__host__ __device__ static inline __half hipgen_double2half(double d) {
  if (d != d) {
    __half_raw nan;
    nan.x = 0x7fff;
    return nan;
  }
  float f = (float)d;
  if ((double)f != d && f - f == 0.0f) {
    unsigned int u;
    __builtin_memcpy(&u, &f, sizeof u);
    if (__builtin_fabs((double)f) > __builtin_fabs(d)) u -= 1;
    u |= 1;
    __builtin_memcpy(&f, &u, sizeof f);
  }
  return __float2half(f);
}`}

// memLocationKey is the polyfill key of memLocation.
const memLocationKey = "(unified memory calls with a cudaMemLocation)"

// memLocation adds the forms of hipMemPrefetchAsync and hipMemAdvise that
// take a location, as CUDA's have since CUDA 13 (cudaMemPrefetchAsync_v2
// and cudaMemAdvise_v2 from 12.2; HeCBench's prefetch benchmark): HIP's
// take a device number, hipCpuDeviceId for the host. The stand-ins are
// overloads, templates whose parameter must be a hipMemLocation, so that
// the calls stay as they are and a ROCm that has such overloads has its
// own preferred. A location that is not a device is the host; a prefetch
// with flags other than 0, which CUDA reserves, fails as CUDA's does.
var memLocation = polyfill{name: "hipMemPrefetchAsync", overload: true,
	why: "HIP's hipMemPrefetchAsync and hipMemAdvise take a device number, CUDA's (from CUDA 13, or their _v2 forms) a cudaMemLocation; overloads that take the location and pass its device (hipCpuDeviceId for the host) stand in, so that the calls stay as they are",
	code: `#include <type_traits>
template <class L>
static inline typename std::enable_if<std::is_same<L, hipMemLocation>::value, hipError_t>::type
hipMemPrefetchAsync(const void* p, size_t n, L loc, unsigned int flags, hipStream_t s = 0) {
  if (flags != 0) return hipErrorInvalidValue;
  return hipMemPrefetchAsync(p, n, loc.type == hipMemLocationTypeDevice ? loc.id : hipCpuDeviceId, s);
}
template <class L>
static inline typename std::enable_if<std::is_same<L, hipMemLocation>::value, hipError_t>::type
hipMemAdvise(const void* p, size_t n, hipMemoryAdvise advice, L loc) {
  return hipMemAdvise(p, n, advice, loc.type == hipMemLocationTypeDevice ? loc.id : hipCpuDeviceId);
}`}

// memLocationHost stands in for cudaMemLocationTypeHost (and the NUMA
// host locations), which HIP's hipMemLocationType lacks: a value of that
// type that no HIP location has, which the overloads of memLocation take
// for the host (hipCpuDeviceId). HIP's own calls with a location reject
// it, hence the warning.
var memLocationHost = polyfill{name: "hipgen_MemLocationTypeHost", typ: true, warn: true, deps: []string{memLocationKey},
	why:  "HIP's hipMemLocationType has no host location; a value that hipgen's overloads of hipMemPrefetchAsync and hipMemAdvise take for the host (hipCpuDeviceId) stands in, and HIP's other calls with a location reject it",
	code: "static const hipMemLocationType hipgen_MemLocationTypeHost = static_cast<hipMemLocationType>(2);"}

// memLocationCall handles the call at k of name, cudaMemPrefetchAsync or
// cudaMemAdvise (their _v2 forms, the driver API's cuMemPrefetchAsync and
// cuMemAdvise, which the table maps to the same HIP names, or HIP's names
// in a translation, which must be handled alike: FuzzTranslate), when it
// passes a location (see memLocation): five arguments to a prefetch, or
// four in a file that names cudaMemLocation (four is also the older
// prefetch with a stream, and every advice), or a _v2 form. The overloads
// join the file, and a _v2 name becomes HIP's plain one. It reports
// whether it renamed the call; the table renames the others.
func (t *translator) memLocationCall(k int, name string) bool {
	if !t.plainCall(k) {
		return false
	}
	args, _, ok := t.call(k)
	if !ok {
		return false
	}
	v2 := strings.HasSuffix(name, "_v2")
	prefetch := strings.Contains(name, "Prefetch")
	names := containsText(t.src, "cudaMemLocation") || containsText(t.src, "hipMemLocation") || containsText(t.src, "CUmemLocation")
	if !v2 && !(prefetch && len(args) == 5) && !(len(args) == 4 && names) {
		return false
	}
	t.notePolyfill(memLocationKey, int(t.tok(k).Start))
	t.needRuntime = true
	if strings.HasPrefix(name, "hip") {
		return false // a translation's call: it stays, with the overloads
	}
	t.report(k, diag.Note, "polyfill", "a unified memory call with a cudaMemLocation: "+memLocation.why+oncePerFile)
	if !v2 {
		return false
	}
	to := "hipMemAdvise"
	if prefetch {
		to = "hipMemPrefetchAsync"
	}
	t.replace(k, to)
	return true
}
