package sources

// mathConstants are the constants of CUDA's math_constants.h, with their
// values (the same bits as CUDA 11.8's definitions: TestMathConstantsMatchCUDA
// compares them). HIP has them as HIP_* from ROCm 5.3 (float) and 5.7
// (double), in hip/hip_math_constants.h; for an older target each one a
// file uses becomes HIPGEN_ and its name, a macro of that value in the
// polyfill block. The values that are bit patterns are written as such
// (__builtin_bit_cast, which clang and g++ evaluate at compile time, in host
// and device code).
var mathConstants = [...]constantMacro{
	{"CUDART_INF_F", "__builtin_bit_cast(float, 0x7f800000U)"},
	{"CUDART_NAN_F", "__builtin_bit_cast(float, 0x7fffffffU)"},
	{"CUDART_MIN_DENORM_F", "__builtin_bit_cast(float, 0x00000001U)"},
	{"CUDART_MAX_NORMAL_F", "__builtin_bit_cast(float, 0x7f7fffffU)"},
	{"CUDART_NEG_ZERO_F", "__builtin_bit_cast(float, 0x80000000U)"},
	{"CUDART_ZERO_F", "0.0F"},
	{"CUDART_ONE_F", "1.0F"},
	{"CUDART_SQRT_HALF_F", "0.707106781F"},
	{"CUDART_SQRT_HALF_HI_F", "0.707106781F"},
	{"CUDART_SQRT_HALF_LO_F", "1.210161749e-08F"},
	{"CUDART_SQRT_TWO_F", "1.414213562F"},
	{"CUDART_THIRD_F", "0.333333333F"},
	{"CUDART_PIO4_F", "0.785398163F"},
	{"CUDART_PIO2_F", "1.570796327F"},
	{"CUDART_3PIO4_F", "2.356194490F"},
	{"CUDART_2_OVER_PI_F", "0.636619772F"},
	{"CUDART_SQRT_2_OVER_PI_F", "0.797884561F"},
	{"CUDART_PI_F", "3.141592654F"},
	{"CUDART_L2E_F", "1.442695041F"},
	{"CUDART_L2T_F", "3.321928094F"},
	{"CUDART_LG2_F", "0.301029996F"},
	{"CUDART_LGE_F", "0.434294482F"},
	{"CUDART_LN2_F", "0.693147181F"},
	{"CUDART_LNT_F", "2.302585093F"},
	{"CUDART_LNPI_F", "1.144729886F"},
	{"CUDART_TWO_TO_M126_F", "1.175494351e-38F"},
	{"CUDART_TWO_TO_126_F", "8.507059173e37F"},
	{"CUDART_NORM_HUGE_F", "3.402823466e38F"},
	{"CUDART_TWO_TO_23_F", "8388608.0F"},
	{"CUDART_TWO_TO_24_F", "16777216.0F"},
	{"CUDART_TWO_TO_31_F", "2147483648.0F"},
	{"CUDART_TWO_TO_32_F", "4294967296.0F"},
	{"CUDART_REMQUO_BITS_F", "3U"},
	{"CUDART_REMQUO_MASK_F", "7U"},
	{"CUDART_TRIG_PLOSS_F", "105615.0F"},
	{"CUDART_INF", "__builtin_bit_cast(double, 0x7ff0000000000000ULL)"},
	{"CUDART_NAN", "__builtin_bit_cast(double, 0xfff8000000000000ULL)"},
	{"CUDART_NEG_ZERO", "__builtin_bit_cast(double, 0x8000000000000000ULL)"},
	{"CUDART_MIN_DENORM", "__builtin_bit_cast(double, 0x0000000000000001ULL)"},
	{"CUDART_ZERO", "0.0"},
	{"CUDART_ONE", "1.0"},
	{"CUDART_SQRT_TWO", "1.4142135623730951e+0"},
	{"CUDART_SQRT_HALF", "7.0710678118654757e-1"},
	{"CUDART_SQRT_HALF_HI", "7.0710678118654757e-1"},
	{"CUDART_SQRT_HALF_LO", "(-4.8336466567264567e-17)"},
	{"CUDART_THIRD", "3.3333333333333333e-1"},
	{"CUDART_TWOTHIRD", "6.6666666666666667e-1"},
	{"CUDART_PIO4", "7.8539816339744828e-1"},
	{"CUDART_PIO4_HI", "7.8539816339744828e-1"},
	{"CUDART_PIO4_LO", "3.0616169978683830e-17"},
	{"CUDART_PIO2", "1.5707963267948966e+0"},
	{"CUDART_PIO2_HI", "1.5707963267948966e+0"},
	{"CUDART_PIO2_LO", "6.1232339957367660e-17"},
	{"CUDART_3PIO4", "2.3561944901923448e+0"},
	{"CUDART_2_OVER_PI", "6.3661977236758138e-1"},
	{"CUDART_PI", "3.1415926535897931e+0"},
	{"CUDART_PI_HI", "3.1415926535897931e+0"},
	{"CUDART_PI_LO", "1.2246467991473532e-16"},
	{"CUDART_SQRT_2PI", "2.5066282746310007e+0"},
	{"CUDART_SQRT_2PI_HI", "2.5066282746310007e+0"},
	{"CUDART_SQRT_2PI_LO", "(-1.8328579980459167e-16)"},
	{"CUDART_SQRT_PIO2", "1.2533141373155003e+0"},
	{"CUDART_SQRT_PIO2_HI", "1.2533141373155003e+0"},
	{"CUDART_SQRT_PIO2_LO", "(-9.1642899902295834e-17)"},
	{"CUDART_SQRT_2OPI", "7.9788456080286536e-1"},
	{"CUDART_L2E", "1.4426950408889634e+0"},
	{"CUDART_L2E_HI", "1.4426950408889634e+0"},
	{"CUDART_L2E_LO", "2.0355273740931033e-17"},
	{"CUDART_L2T", "3.3219280948873622e+0"},
	{"CUDART_LG2", "3.0102999566398120e-1"},
	{"CUDART_LG2_HI", "3.0102999566398120e-1"},
	{"CUDART_LG2_LO", "(-2.8037281277851704e-18)"},
	{"CUDART_LGE", "4.3429448190325182e-1"},
	{"CUDART_LGE_HI", "4.3429448190325182e-1"},
	{"CUDART_LGE_LO", "1.09831965021676510e-17"},
	{"CUDART_LN2", "6.9314718055994529e-1"},
	{"CUDART_LN2_HI", "6.9314718055994529e-1"},
	{"CUDART_LN2_LO", "2.3190468138462996e-17"},
	{"CUDART_LNT", "2.3025850929940459e+0"},
	{"CUDART_LNT_HI", "2.3025850929940459e+0"},
	{"CUDART_LNT_LO", "(-2.1707562233822494e-16)"},
	{"CUDART_LNPI", "1.1447298858494002e+0"},
	{"CUDART_LN2_X_1024", "7.0978271289338397e+2"},
	{"CUDART_LN2_X_1025", "7.1047586007394398e+2"},
	{"CUDART_LN2_X_1075", "7.4513321910194122e+2"},
	{"CUDART_LG2_X_1024", "3.0825471555991675e+2"},
	{"CUDART_LG2_X_1075", "3.2360724533877976e+2"},
	{"CUDART_TWO_TO_23", "8388608.0"},
	{"CUDART_TWO_TO_52", "4503599627370496.0"},
	{"CUDART_TWO_TO_53", "9007199254740992.0"},
	{"CUDART_TWO_TO_54", "18014398509481984.0"},
	{"CUDART_TWO_TO_M54", "5.5511151231257827e-17"},
	{"CUDART_TWO_TO_M1022", "2.22507385850720140e-308"},
	{"CUDART_TRIG_PLOSS", "2147483648.0"},
	{"CUDART_DBL2INT_CVT", "6755399441055744.0"},
}

// mathConstantWhy explains the stand-ins, in one note for all the
// constants of a file.
const mathConstantWhy = "CUDA's math constants (CUDART_PI_F, CUDART_INF, ...) became HIPGEN_CUDART_ macros of the same values, defined in the file: ROCm names them HIP_* in hip/hip_math_constants.h, floats from ROCm 5.3 and doubles from 5.7, which the target lacks"

// constantMacro is a CUDA constant that HIP lacks, with its value.
type constantMacro struct{ name, value string }

// addConstants adds, for each of consts, a polyfill that names it
// HIPGEN_ and its name, a macro of its value, explained by why (one note
// for all of a file's).
func addConstants(m map[string]polyfill, consts []constantMacro, why string) {
	for _, c := range consts {
		name := "HIPGEN_" + c.name
		m[c.name] = polyfill{name: name, typ: true, constant: true, why: why, code: "#define " + name + " " + c.value}
	}
}

// sharedmemCarveouts are CUDA's named values of a kernel's preferred
// shared memory carveout (cudaFuncAttributePreferredSharedMemoryCarveout,
// a percentage, or -1 for the device's default). HIP takes the attribute
// (hipFuncAttributePreferredSharedMemoryCarveout) and its integer but names
// no value; AMD GPUs do not split L1 and LDS that way, and ROCm accepts
// the hint without acting on it.
var sharedmemCarveouts = [...]constantMacro{
	{"cudaSharedmemCarveoutDefault", "(-1)"},
	{"cudaSharedmemCarveoutMaxL1", "0"},
	{"cudaSharedmemCarveoutMaxShared", "100"},
}

// carveoutWhy explains the stand-ins, in one note for all of a file's.
const carveoutWhy = "CUDA's named shared memory carveouts (cudaSharedmemCarveoutMaxShared, ...) became HIPGEN_ macros of CUDA's values (-1, 0, 100), defined in the file: HIP takes the carveout attribute and its value but names none, and AMD GPUs, which do not split L1 and shared memory that way, take it as a hint they do not act on"
