package sources

// CUDA converts a bfloat16 to each integer type in four rounding modes
// (__bfloat162int_rn, __bfloat162ull_rz, ... and __bfloat162char_rz,
// __bfloat162uchar_rz), which no HIP release has (ROCm/clr's
// amd_hip_bf16.h to its current sources; HeCBench's mxfp4 calls
// __bfloat162int_rn). A bfloat16 is exactly a float, so each becomes a
// polyfill that takes the float, rounds it in the mode, and converts as
// CUDA does: a value out of the type's range gives its nearest bound
// (PTX's cvt saturates), NaN 0, or 0x8000000000000000 for the 64-bit
// types (an H200 says so: conformance program bf16_to_int). The polyfills
// are templates in the argument, for ROCm's hip_bfloat16 (before 5.7:
// hipgen_bfloat16, which converts to float) and __hip_bfloat16 (from 5.7:
// __bfloat162float).

// bf16IntCoreKey is the polyfill key of the helper the conversions share.
const bf16IntCoreKey = "(bfloat16 to integer: helper)"

var bf16IntCore = polyfill{name: "hipgen_bf16_to_integer", why: "helper of the bfloat16-to-integer stand-ins",
	code: `#if ` + hipVersionAtLeast57 + `
#define HIPGEN_BF16_FLOAT(b) __bfloat162float(b)
#else
#define HIPGEN_BF16_FLOAT(b) static_cast<float>(b)
#endif
#include <limits>
// f rounded in mode ('n' to nearest even, 'd' down, 'u' up, 'z' toward
// zero), then anything at or past the type's bounds (lo and hi, as
// doubles) as the bound. NaN gives 0, and for 64-bit types the bit
// pattern 0x8000000000000000, as on NVIDIA GPUs.
template <class I>
__host__ __device__ static inline I hipgen_bf16_round_to(float f, char mode, double lo, double hi) {
  if (f != f) return sizeof(I) == 8 ? (I)0x8000000000000000ull : (I)0;
  double r = mode == 'n' ? __builtin_rint((double)f) : mode == 'd' ? __builtin_floor((double)f) : mode == 'u' ? __builtin_ceil((double)f) : __builtin_trunc((double)f);
  if (r <= lo) return std::numeric_limits<I>::min();
  if (r >= hi) return std::numeric_limits<I>::max();
  return (I)r;
}`}

// bf16IntTargets are the integer types, by the name CUDA's functions use,
// with their C type and range.
var bf16IntTargets = []struct{ name, ctype, lo, hi string }{
	{"int", "int", "-2147483648.0", "2147483647.0"},
	{"uint", "unsigned int", "0.0", "4294967295.0"},
	{"short", "short", "-32768.0", "32767.0"},
	{"ushort", "unsigned short", "0.0", "65535.0"},
	{"ll", "long long", "-9223372036854775808.0", "9223372036854775807.0"},
	{"ull", "unsigned long long", "0.0", "18446744073709551615.0"},
	{"char", "signed char", "-128.0", "127.0"},
	{"uchar", "unsigned char", "0.0", "255.0"},
}

// bf16IntDeps are the dependencies every conversion shares.
var bf16IntDeps = []string{bf16IntCoreKey}

// addBF16IntPolyfills adds the conversions' polyfills to m, by CUDA name.
func addBF16IntPolyfills(m map[string]polyfill) {
	m[bf16IntCoreKey] = bf16IntCore
	modes := map[string]string{"rn": "to nearest even", "rd": "down", "ru": "up", "rz": "toward zero"}
	for _, to := range bf16IntTargets {
		for _, mode := range []string{"rd", "rn", "ru", "rz"} {
			if (to.name == "char" || to.name == "uchar") && mode != "rz" {
				continue // CUDA has only the truncating ones
			}
			cuda := "__bfloat162" + to.name + "_" + mode
			name := polyfillName(cuda)
			gen := func() string {
				return "template <class B>\n__host__ __device__ static inline " + to.ctype + " " + name + "(B b) {\n" +
					"  return hipgen_bf16_round_to<" + to.ctype + ">(HIPGEN_BF16_FLOAT(b), '" + mode[1:] + "', " + to.lo + ", " + to.hi + ");\n}"
			}
			m[cuda] = polyfill{name: name, gen: gen, deps: bf16IntDeps,
				why: "HIP has no bfloat16-to-integer conversions; the value as a float, rounded " + modes[mode] + " and clamped to " + to.ctype + ", as CUDA converts, stands in"}
		}
	}
}
