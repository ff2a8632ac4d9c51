package sources

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/hipgen/hipgen/diag"
	"github.com/hipgen/hipgen/sources/lex"
)

// deviceWords make a file need hip_runtime.h even when no table entry
// does: CUDA's built-in keywords and variables.
var deviceWords = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"__global__": true, "__device__": true, "__shared__": true, "__constant__": true, "__host__": true,
		"__managed__": true, "threadIdx": true, "blockIdx": true, "blockDim": true, "gridDim": true,
		"__syncthreads": true, "__launch_bounds__": true, "dim3": true,
	}
})

// hopperWords are identifiers of NVIDIA hardware features (Ampere's
// cp.async, Hopper's TMA and clusters) that AMD GPUs lack.
var hopperWords = map[string]string{
	"CUtensorMap":             "tensor memory accelerator (TMA) descriptors (Hopper)",
	"cuTensorMapEncodeTiled":  "tensor memory accelerator (TMA) descriptors (Hopper)",
	"cuTensorMapEncodeIm2col": "tensor memory accelerator (TMA) descriptors (Hopper)",
	"__pipeline_memcpy_async": "cp.async pipelines (Ampere)",
	"memcpy_async":            "cp.async pipelines (Ampere)",
	"__cluster_dims__":        "thread block clusters (Hopper)",
	"cluster_group":           "thread block clusters (Hopper)",
}

// Kinds of identifiers with rules beyond the table.
const (
	spNone uint8 = iota
	spWarp
	spBits
	spWarpSize
	spAsm
	spTexture
	spShared
	spCutlass
	spConstexpr
	spDevice
	spHopper
	spCoalesced
	spLibcuxx
	spCallConv
	spNamespace
	spCGMember
	spCGShuffle
	spCUDAArch
	spCUDARTVersion
	spComputeCap
	spPropMember
	spFloats2BF162
	spHasInclude
	spMathMacro
	spMinMax
	spAtomicAdd
	spAtomicI64
	spRegister
	spOperator
	spFloat2BF162
	spMakeBF162
	spMemLocation
	spFfsll
	spMakeUint3
	spHalfType
	spHostMath
	spGridConstant
	spMemberRename
)

// specialName is the rule for one identifier; name is the map's own key,
// so callers get the string without allocating.
type specialName struct {
	kind uint8
	name string
}

// specialList builds the table of specialName by identifier (see
// nameTables).
func specialList() map[string]specialName {
	m := map[string]specialName{}
	add := func(kind uint8, names ...string) {
		for _, n := range names {
			m[n] = specialName{kind, n}
		}
	}
	for n := range warpIntrinsics() {
		add(spWarp, n)
	}
	add(spBits, "__popc", "__ffs", "__clz")
	add(spWarpSize, "warpSize")
	add(spAsm, "asm", "__asm__", "__asm")
	add(spTexture, "texture")
	add(spShared, "__shared__")
	add(spCutlass, "cutlass", "cute")
	add(spConstexpr, "constexpr")
	add(spCoalesced, "coalesced_threads", "coalesced_group")
	add(spLibcuxx, "cuda")
	add(spCallConv, "CUDART_CB", "CUDA_CB")
	add(spGridConstant, "__grid_constant__")
	for n := range memberRenames {
		add(spMemberRename, n)
	}
	add(spNamespace, "namespace", "using")
	for n := range cgMembers() {
		add(spCGMember, n)
	}
	for n := range cgShuffles {
		add(spCGShuffle, n)
	}
	add(spCUDAArch, "__CUDA_ARCH__")
	add(spCUDARTVersion, "CUDART_VERSION", "CUDA_VERSION")
	add(spFloats2BF162, "__floats2bfloat162_rn")
	add(spFloat2BF162, "__float2bfloat162_rn")
	add(spMakeBF162, "make_bfloat162")
	add(spMemLocation, "cudaMemPrefetchAsync", "cudaMemAdvise", "cudaMemPrefetchAsync_v2", "cudaMemAdvise_v2", "hipMemPrefetchAsync", "hipMemAdvise",
		"cuMemPrefetchAsync", "cuMemAdvise", "cuMemPrefetchAsync_v2", "cuMemAdvise_v2")
	add(spHasInclude, "__has_include")
	add(spMinMax, "min", "max")
	add(spAtomicAdd, "atomicAdd")
	add(spAtomicI64, "atomicAnd", "atomicOr", "atomicXor", "atomicMax", "atomicMin")
	add(spRegister, "register")
	add(spFfsll, "__ffsll")
	add(spMakeUint3, "make_uint3")
	add(spHalfType, "__half", "__half2", "half", "half2")
	for _, m := range hostMath {
		add(spHostMath, m.name)
	}
	add(spOperator, "operator")
	add(spMathMacro, "isfinite", "isnan", "isinf", "signbit", "isnormal", "fpclassify")
	add(spComputeCap, "major", "minor")
	for n := range propMembers() {
		add(spPropMember, n)
	}
	for n := range deviceWords() {
		if _, ok := m[n]; !ok {
			add(spDevice, n)
		}
	}
	for n := range hopperWords {
		add(spHopper, n)
	}
	return m
}

// hasWGMMA reports whether an identifier names a wgmma builtin.
func hasWGMMA(b []byte) bool {
	for len(b) >= 5 {
		i := bytes.IndexByte(b, 'w')
		if i < 0 || len(b)-i < 5 {
			return false
		}
		if string(b[i+1:i+5]) == "gmma" {
			return true
		}
		b = b[i+1:]
	}
	return false
}

// special handles identifiers with rules beyond the table. handled is
// false when the table should still be consulted.
func (t *translator) special(k int, b []byte) (next int, handled bool) {
	var sp specialName
	ok := t.names.specialFilter.mayContain(b)
	if ok {
		sp, ok = t.names.special[string(b)]
	}
	if !ok {
		if hasWGMMA(b) {
			t.report(k, diag.Error, "hopper-feature", string(b)+": wgmma (warpgroup matrix multiply) is Hopper-only; AMD uses MFMA/WMMA instructions (rocWMMA, composable_kernel)")
			return k + 1, true
		}
		return 0, false
	}
	s := sp.name
	if t.inNative() && !(sp.kind == spWarpSize && (t.is(k-1, ".") || t.is(k-1, "->"))) {
		// (A device's warpSize read in host code is still reported: it
		// may size the launches of kernels that hipgen translated.)
		switch sp.kind {
		case spWarp, spBits, spWarpSize, spCoalesced:
			// HIP code of the project's own (see hipBranch): its
			// warp-level code is meant for the wavefront as it is.
			t.needRuntime = true
			t.report(k, diag.Note, checkWaveNative, s+" left as written: it is in a branch that only HIP builds compile (the project's own test of a HIP macro, such as USE_ROCM or __HIP_PLATFORM_AMD__), so it was written for HIP's wavefront; hipgen's wave64 rules apply to the CUDA code"+oncePerFile)
			return k + 1, true
		}
	}
	switch sp.kind {
	case spWarp:
		if t.ownMacroUse(k, s) {
			return k + 1, true
		}
		if t.is(k+1, "(") && !t.is(k-1, ".") && !t.is(k-1, "->") && !t.is(k-1, "::") {
			return t.warpCall(k, s), true
		}
	case spBits:
		if t.ownMacroUse(k, s) {
			return k + 1, true
		}
		return t.bitCall(k, s), true
	case spWarpSize:
		return t.warpSizeIdent(k), true
	case spAsm:
		return t.inlineAsm(k), true
	case spTexture:
		if t.is(k+1, "<") && !t.is(k-1, "::") {
			t.needRuntime = true
			t.report(k, diag.Warning, "texture-reference", "texture references are deprecated in HIP and removed in CUDA 12; use texture objects (hipTextureObject_t)")
		}
		// Any other "texture" is a variable or member of that name.
		return k + 1, true
	case spShared:
		t.needRuntime = true
		if t.opts.Launch == LaunchGGL && t.is(k-1, "extern") {
			t.dynamicShared(k - 1)
		}
		if t.usesWarps() && !t.inNative() {
			t.sharedArray(k)
		}
		return k + 1, true
	case spComputeCap:
		if (t.is(k-1, ".") || t.is(k-1, "->")) && !t.is(k+1, "=") && t.fileReadsDeviceProps() {
			t.computeCapability(k)
		}
		return k + 1, true
	case spPropMember:
		if m := propMembers()[s]; (t.is(k-1, ".") || t.is(k-1, "->")) && t.ver.Less(m.since) && t.fileReadsDeviceProps() {
			t.propMember(k, s)
		}
		return k + 1, true
	case spCutlass:
		if t.is(k+1, "::") && !t.is(k-1, "::") {
			if !t.cutlassNoted {
				t.cutlassNoted = true
				t.report(k, diag.Error, "cutlass", s+":: CUTLASS and CuTe have no HIP port; port the kernel by hand or use a ROCm library (composable_kernel, rocWMMA, hipBLASLt)")
			}
			return k + 1, true
		}
	case spConstexpr:
		// constexpr int kWarpSize = 32;
		for j := k + 1; j < k+6 && j < len(t.toks); j++ {
			if t.is(j, "=") && t.tok(j-1).Kind == lex.Ident && t.tok(j+1).Kind == lex.Number && t.is(j+2, ";") {
				t.warpSizeConstant(j-1, j+1)
				break
			}
		}
		return k + 1, true
	case spDevice:
		t.needRuntime = true
		if s == "__device__" && t.needsRDCCheck() {
			if name := t.deviceDeclaration(k); name >= 0 {
				t.deviceDecls = append(t.deviceDecls, name)
			}
		}
		if t.is(k+1, ".") {
			t.builtinArgument(k)
		}
		if s == "__launch_bounds__" {
			t.launchBounds(k)
		}
	case spLibcuxx:
		if t.pytorchNamespace(k) {
			return k + 1, true
		}
		// libcu++'s cuda::std mirrors the standard library, which HIP
		// device code uses directly.
		nested := t.is(k-1, "::") && (t.tok(k-2).Kind == lex.Ident && !cppKeywords()[string(t.text(k-2))] || t.is(k-2, ">"))
		if t.is(k+1, "::") && t.is(k+2, "std") && t.is(k+3, "::") && !nested {
			t.edits = append(t.edits, edit{int(t.tok(k).Start), int(t.tok(k + 2).End), "std"})
			t.report(k, diag.Note, "libcuxx", "cuda::std became std: HIP has no libcu++; in device code the standard library serves what is constexpr or has HIP's device overloads (type traits, numeric_limits, min and max, the math functions), not its atomics or synchronisation types")
			if k+4 < len(t.toks) && libcuxxHostOnly[string(t.text(k+4))] && t.inDeviceFunction(k) {
				name := string(t.text(k + 4))
				t.report(k+4, diag.Warning, "libcuxx", "std::"+name+" (from cuda::std::"+name+") in device code: the standard library's member functions are host functions, which hipcc rejects there; use HIP's atomic functions (atomicAdd, atomicCAS, __hip_atomic_load and __hip_atomic_store with a memory order and scope), and __syncthreads for a block's barrier")
			}
			return k + 3, true
		}
		// libcu++ also puts the memory orders in cuda:: itself.
		if t.is(k+1, "::") && !nested && t.tok(k+2).Kind == lex.Ident && libcuxxMemoryOrders[string(t.text(k+2))] {
			t.edits = append(t.edits, edit{int(t.tok(k).Start), int(t.tok(k).End), "std"})
			t.report(k, diag.Note, "libcuxx", "cuda::"+string(t.text(k+2))+" became std::"+string(t.text(k+2))+": HIP has no libcu++")
			return k + 3, true
		}
	case spRegister:
		t.registerKeyword(k)
		return k + 1, true
	case spFfsll:
		t.ffsllArgument(k)
		return k + 1, true
	case spMakeUint3:
		if t.dim3FromUint3(k) {
			return k + 1, true
		}
	case spOperator:
		t.vectorOperator(k)
		return k + 1, true
	case spCallConv:
		// The callback calling convention: empty on Linux, and HIP has
		// none, so the word goes; not from an #if's condition, where it
		// means nothing and whose rewrite would then change the next
		// translation.
		if w := t.directiveWord(k); (t.tok(k+1).Kind == lex.Ident || t.is(k+1, "*")) && w != "if" && w != "elif" {
			t.edits = append(t.edits, edit{int(t.tok(k).Start), int(t.tok(k + 1).Start), ""})
			t.report(k, diag.Note, "call-fix", s+" removed: it only names a calling convention, which HIP callbacks do not take")
			return k + 1, true
		}
	case spMemberRename:
		if t.is(k-1, ".") || t.is(k-1, "->") {
			to := memberRenames[s]
			t.replace(k, to)
			t.report(k, diag.Note, "call-fix", "the member "+s+" became "+to+", HIP's name for it"+oncePerFile)
			return k + 1, true
		}
	case spGridConstant:
		// A kernel parameter's annotation (CUDA 11.7): the kernel may
		// take the const parameter's address without a copy. HIP has
		// none (hipcc: "unknown type name"); without it the results
		// are the same.
		if !t.tok(k).Directive {
			t.edits = append(t.edits, edit{int(t.tok(k).Start), int(t.tok(k + 1).Start), ""})
			t.report(k, diag.Note, "unsupported-api", s+" removed: HIP has no such annotation; the parameter stays const, and a kernel that takes its address reads a copy, with the same results"+oncePerFile)
			return k + 1, true
		}
	case spCoalesced:
		if !t.coalescedNoted {
			t.coalescedNoted = true
			t.report(k, diag.Warning, checkWaveHazard, s+": a coalesced group spans the active lanes of the whole wavefront, up to 64 on CDNA GPUs, not of a 32-lane warp: size() and thread_rank() can exceed 31 and 32-bit masks built from them overflow; use tiled_partition<32> where the code assumes 32 lanes")
		}
	case spNamespace:
		return t.namespaceDecl(k), true
	case spCGMember:
		if t.cgMemberCall(k, s) {
			if cgMembers()[s].args {
				return k + 2, true
			}
			return k + 3, true
		}
		if !cgMembers()[s].args {
			return k + 1, true
		}
	case spCGShuffle:
		if t.cgShuffleCall(k, s) {
			return k + 2, true
		}
	case spCUDAArch:
		t.cudaArchUse(k)
		return k + 1, true
	case spCUDARTVersion:
		t.cudaVersionUse(k)
		return k + 1, true
	case spHopper:
		t.report(k, diag.Error, "hopper-feature", s+": "+hopperWords[s]+" are an NVIDIA hardware feature with no AMD equivalent; rewrite this part for ROCm")
		return k + 1, true
	case spFloats2BF162:
		return k + 1, t.floatsToBFloat162(k)
	case spFloat2BF162:
		return k + 1, t.floatToBFloat162(k)
	case spMakeBF162:
		return k + 1, t.makeBFloat162(k)
	case spMemLocation:
		if t.memLocationCall(k, s) {
			return k + 1, true
		}
		return 0, false
	case spHasInclude:
		t.hasInclude(k)
		return k + 1, true
	case spMinMax:
		// The call stays as it is; the stand-ins join the file once.
		if _, seen := t.polyfills[mixedMinMaxKey]; !seen && t.plainCall(k) && t.openAround(k) >= 0 {
			t.notePolyfill(mixedMinMaxKey, int(t.tok(k).Start))
			t.needRuntime = true
		}
		return 0, false
	case spAtomicAdd:
		// The call stays as it is; the overloads for __half and
		// __half2 join a file that names them, once. Every call
		// reports (see oncePerFile).
		if t.fileNamesHalf() {
			t.overloadsFor(k, atomicAddHalfKey, "atomicAdd may take a __half or a __half2 in this file: "+atomicAddHalf.why)
		}
		return 0, false
	case spAtomicI64:
		// The call stays as it is (or becomes hipgen_atomicmax_i64 and
		// the like, see isSigned64Pointer); the overloads for long long
		// join a file that spells the type, once.
		if (s == "atomicMax" || s == "atomicMin") && (!t.ver.Less(atomicMinMaxI64From) || t.isSigned64Pointer(k+1)) {
			return 0, false
		}
		if t.fileNamesLongLong() {
			t.overloadsFor(k, atomicI64Key, "atomicAnd, atomicOr, atomicXor, atomicMax or atomicMin may take a long long in this file: "+atomicI64.why)
		}
		return 0, false
	case spHalfType:
		t.halfInHostCode(k)
		return 0, false
	case spHostMath:
		if t.hostMathCall(k, s) {
			return k + 1, true
		}
		return 0, false
	case spMathMacro:
		if t.mathUse < 0 && t.plainCall(k) {
			if device, host := t.functionSpace(k); !device || host {
				t.mathUse = k // a call the host pass compiles
			}
		}
		return 0, false
	}
	return 0, false
}

// plainCall reports whether the identifier at k is called as itself, on
// a code line: followed by '(', and not a member (.name, ->name) or a name
// qualified by a namespace or class (x::name).
func (t *translator) plainCall(k int) bool {
	return t.is(k+1, "(") && !t.is(k-1, "::") && !t.is(k-1, ".") && !t.is(k-1, "->") && !t.tok(k).Directive
}

// overloadsFor adds the polyfill key, overloads of the function called
// at k that stand in beside HIP's (atomicAddHalf, atomicI64), to the file
// once, where k is a plain call inside a block, and notes why: the call
// stays as it is. Every call reports (see oncePerFile).
func (t *translator) overloadsFor(k int, key, why string) {
	if !t.plainCall(k) || t.openAround(k) < 0 {
		return
	}
	t.notePolyfill(key, int(t.tok(k).Start))
	t.needRuntime = true
	t.report(k, diag.Note, "polyfill", why+oncePerFile)
}

// ptxHopper maps PTX instruction prefixes found in asm strings to what
// they are.
var ptxHopper = []struct{ prefix, what string }{
	{"wgmma.", "wgmma (warpgroup matrix multiply, Hopper)"},
	{"cp.async.bulk", "cp.async.bulk (tensor memory accelerator, Hopper)"},
	{"cp.reduce.async.bulk", "cp.reduce.async.bulk (tensor memory accelerator, Hopper)"},
	{"tcgen05.", "tcgen05 (Blackwell tensor cores)"},
	{"setmaxnreg", "setmaxnreg (Hopper register reconfiguration)"},
	{"mbarrier.", "mbarrier (Hopper asynchronous barriers)"},
	{"cp.async", "cp.async (Ampere asynchronous copies)"},
	{"ldmatrix", "ldmatrix (NVIDIA tensor core fragments)"},
	{"mma.sync", "mma.sync (NVIDIA tensor cores)"},
}

// inlineAsm reports asm statements: PTX cannot run on AMD GPUs. An empty
// template (a compiler barrier such as asm volatile("" ::: "memory")) and
// AMDGCN assembly (code already written for AMD GPUs, often beside the
// PTX it replaces) are left alone.
func (t *translator) inlineAsm(k int) int {
	j := k + 1
	for t.is(j, "volatile") || t.is(j, "__volatile__") || t.is(j, "goto") || t.is(j, "inline") {
		j++
	}
	if !t.is(j, "(") {
		return k + 1
	}
	close := t.matching(j)
	if close < 0 {
		close = j
	}
	// An asm label names a declaration's symbol or register (register
	// long sp asm("rsp")): one string after a declarator, no code.
	// (The identifier before it is a declarator only outside a directive:
	// after "#ifdef FOO", asm starts a statement.)
	if close == j+2 && t.tok(j+1).Kind == lex.String && t.tok(k-1).Kind == lex.Ident && !t.tok(k-1).Directive && !cppKeywords()[string(t.text(k-1))] {
		return close + 1
	}
	if t.wrappedPTX(k) {
		return close + 1 // hipgen_ptx_value's copy of the PTX, not compiled
	}
	kind := asmKind(t.asmTemplate(j+1, close))
	refused := "" // the PTX statement ptxInstructions has no HIP form for
	switch {
	case kind == asmEmpty || kind == asmAMD:
		return close + 1
	case !t.deadInFile() && t.deviceNever() && t.deviceOnly(k):
		// The device pass never compiles it (the #else of "#if
		// defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 750", which holds
		// there), and the host pass neither emits a device function
		// nor checks its assembly.
		t.report(k, diag.Note, "inline-asm", "inline assembly in a device function, in a block that hipcc's device pass never compiles (an earlier branch is taken there, or the condition fails): it never reaches an AMD GPU, and the host pass does not emit device functions")
		return close + 1
	case !t.deadInFile() && t.ptxLaneRegister(k, j, close):
		// Code hipcc never compiles keeps its asm, and the note; but
		// only where the file says so: what project headers define is
		// learnt after the output is made (HeaderMacros.Settle), and the
		// output must not depend on it. The walk goes on into the asm's
		// arguments: the operands copied into the macro's code are
		// translated there (expandSpans).
		return j + 1
	case !t.deadInFile() && kind == asmPTX:
		// The same, for the instructions HIP computes; one it has no
		// form for is named in the error below.
		var ok bool
		if ok, refused = t.ptxInstructions(k, j, close); ok {
			return j + 1
		}
	case kind == asmCPU:
		// A CPU's assembly outside device code (Boost's rounding
		// control, a timestamp read): hipcc's host pass compiles it as
		// nvcc's host compiler does.
		if !t.inDeviceFunction(k) {
			return close + 1
		}
		t.report(k, diag.Error, "inline-asm", "inline assembly in device code, without a PTX or AMDGCN instruction, cannot run on AMD GPUs; replace it with HIP intrinsics or guard it with #if !defined(__HIP_PLATFORM_AMD__)")
		return close + 1
	}
	what := ""
	for i := j + 1; i < close; i++ {
		if t.tok(i).Kind != lex.String {
			continue
		}
		body := t.text(i)
		for _, h := range ptxHopper {
			if bytes.Contains(body, []byte(h.prefix)) {
				what = h.what
				break
			}
		}
		if what != "" {
			break
		}
	}
	msg := "inline PTX assembly cannot run on AMD GPUs; replace it with HIP intrinsics or guard it with #if !defined(__HIP_PLATFORM_AMD__)"
	for i := j + 1; i < close; i++ {
		if t.tok(i).Kind == lex.String && bytes.Contains(t.text(i), []byte("%laneid")) {
			msg = "inline PTX reads %laneid, which cannot run on AMD GPUs; use (__lane_id() & 31) for the lane within a 32-lane logical warp"
			break
		}
		if t.tok(i).Kind == lex.String && bytes.Contains(t.text(i), []byte("%lanemask")) {
			msg = "inline PTX reads a %lanemask register, which cannot run on AMD GPUs; compute it from the lane, for example (1u << (__lane_id() & 31)) - 1 for %lanemask_lt"
			break
		}
	}
	if what != "" {
		t.report(k, diag.Error, "hopper-feature", "inline PTX uses "+what+", which has no AMD equivalent")
	}
	if refused != "" && strings.HasPrefix(msg, "inline PTX assembly cannot") {
		msg = "inline PTX assembly cannot run on AMD GPUs (hipgen has no HIP form of \"" + refused + "\"); replace it with HIP intrinsics or guard it with #if !defined(__HIP_PLATFORM_AMD__)"
	}
	if alt := t.portableAlternative(k); alt != "" && !t.deadOnHIP {
		msg = strings.TrimSuffix(msg, "; replace it with HIP intrinsics or guard it with #if !defined(__HIP_PLATFORM_AMD__)") + "; " + alt
	}
	t.report(k, diag.Error, "inline-asm", msg)
	return close + 1
}

// ptxValue names the macro that stands for an asm statement whose one
// output HIP computes without assembly: hipgen_ptx_value(lvalue, value,
// asm(...)) assigns value to lvalue and drops the asm, kept as written for
// the reader (and for the rule that strings are never rewritten).
const ptxValue = "hipgen_ptx_value"

// ptxLaneRegisters are the PTX special registers of a thread's lane that
// ptxLaneRegister rewrites: what HIP computes them with on 32-lane logical
// warps, what that is (for the note), and what it computes on the whole
// wavefront for --wave=wide (the lane only: a 64-lane mask does not fit
// the 32-bit output).
var ptxLaneRegisters = map[string]struct{ logical, what, wide string }{
	"%%laneid":      {"(__lane_id() & 31)", "the lane within its 32-lane logical warp", "__lane_id()"},
	"%%lanemask_lt": {"((1u << (__lane_id() & 31)) - 1u)", "the mask of the lanes below the thread's, in its 32-lane logical warp", ""},
	"%%lanemask_le": {"((2u << (__lane_id() & 31)) - 1u)", "the mask of the lanes up to the thread's, in its 32-lane logical warp", ""},
	"%%lanemask_gt": {"(~((2u << (__lane_id() & 31)) - 1u))", "the mask of the lanes above the thread's, in its 32-lane logical warp", ""},
	"%%lanemask_ge": {"(~((1u << (__lane_id() & 31)) - 1u))", "the mask of the lanes from the thread's, in its 32-lane logical warp", ""},
}

// ptxLaneRegister rewrites the asm statement at k (its parentheses at
// open and close) when all it does is read a lane register into a 32-bit
// output, asm("mov.u32 %0, %%laneid;" : "=r"(lane)), as faiss, DeepSpeed
// and cuda-samples do: it becomes hipgen_ptx_value(lane, (__lane_id() &
// 31), asm(...)), with a note. It reports whether it did.
func (t *translator) ptxLaneRegister(k, open, close int) bool {
	// A template, one "=r" output, nothing else.
	out := open + 3
	if t.tok(open+1).Kind != lex.String || !t.is(open+2, ":") || t.tok(out).Kind != lex.String ||
		string(t.text(out)) != `"=r"` || !t.is(out+1, "(") {
		return false
	}
	lv := t.matching(out + 1)
	if lv < 0 || lv+1 != close || lv == out+2 || lv-out > 64 {
		return false
	}
	for i := out + 2; i < lv; i++ {
		if t.isByte(i, ';') || t.isByte(i, '{') || t.isByte(i, '}') {
			return false // no lvalue; wrappedPTX would not find the call
		}
	}
	tmpl := strings.Fields(strings.TrimSuffix(strings.TrimSpace(string(t.asmTemplate(open+1, close))), ";"))
	if len(tmpl) != 3 || (tmpl[0] != "mov.u32" && tmpl[0] != "mov.b32" && tmpl[0] != "mov.s32") || tmpl[1] != "%0," {
		return false
	}
	if !strings.HasPrefix(tmpl[2], "%%") {
		tmpl[2] = "%" + tmpl[2] // nvcc takes %laneid for %%laneid too
	}
	reg, ok := ptxLaneRegisters[tmpl[2]]
	if !ok {
		return false
	}
	value, how := reg.logical, reg.what
	if t.wave.wide {
		if reg.wide == "" {
			return false // reported: a 64-lane mask does not fit
		}
		value, how = reg.wide, "the lane within the wavefront"
	}
	t.insert(int(t.tok(k).Start), ptxValue+"("+t.copySpan(int(t.tok(out+2).Start), int(t.tok(lv-1).End))+", "+value+", ")
	t.insert(int(t.tok(close).End), ")")
	t.notePolyfill(ptxValueKey, int(t.tok(k).Start))
	t.needRuntime = true
	t.report(k, diag.Note, "inline-asm", "inline PTX reading "+strings.TrimPrefix(tmpl[2], "%")+" became "+ptxValue+"(..., "+value+", asm(...)): "+how+"; the asm is kept as the macro's last argument, which is not compiled")
	return true
}

// ptxValueKey is hipgen_ptx_value's key among the polyfills: no CUDA name.
const ptxValueKey = "asm:" + ptxValue

// wrappedPTX reports whether the asm statement at k is the last argument
// of a hipgen_ptx_value call (see ptxLaneRegister): a translation's own.
// ptxLaneRegister wraps only lvalues of at most 62 tokens without braces
// or semicolons, and ptxInstructions writes at most ptxPrefixMax bytes,
// with braces and semicolons only inside parentheses, so the call is
// always within reach.
func (t *translator) wrappedPTX(k int) bool {
	if !t.is(k-1, ",") {
		return false
	}
	depth := 0
	for i := k - 1; i >= 0 && i > k-ptxPrefixMax-1; i-- {
		switch {
		case t.isByte(i, ')'):
			depth++
		case t.isByte(i, '('):
			if depth == 0 {
				return t.is(i-1, ptxValue) || t.is(i-1, ptxCode)
			}
			depth--
		case depth == 0 && (t.isByte(i, ';') || t.isByte(i, '{') || t.isByte(i, '}')):
			// Inside parentheses they are the statement expression
			// that holds a carry flag (see ptxCarry).
			return false
		}
	}
	return false
}

// portableAlternative tells, for inline assembly at k in a branch of a
// conditional whose next branch (#elif or #else) uses nothing the target
// ROCm lacks, how to let hipcc take that one instead (llama_cu_awq's
// loads: #if USE_NO_CACHE_ALLOCATE_FOR_WEIGHT_LOADS, PTX; #else, a plain
// load). It returns "" when there is no such branch.
func (t *translator) portableAlternative(k int) string {
	h := t.enclosingConditional(k)
	if h < 0 || t.is(h+1, "else") {
		return ""
	}
	e := t.condBlockEnd(h + 2)
	if e >= len(t.toks) || t.is(e+1, "endif") || t.blockUnportable(e) != "" {
		return ""
	}
	const notAMD = " && !defined(__HIP_PLATFORM_AMD__)"
	word, end := string(t.text(h+1)), t.endOfDirective(h)
	var cond string
	switch word {
	case "ifdef":
		cond = "#if defined(" + string(t.text(h+2)) + ")" + notAMD
	case "ifndef":
		cond = "#if !defined(" + string(t.text(h+2)) + ")" + notAMD
	default:
		c := strings.TrimSpace(t.span(h+2, end-1))
		if end-(h+2) > 1 {
			c = "(" + c + ")"
		}
		cond = "#" + word + " " + c + notAMD
	}
	return "the #" + string(t.text(e+1)) + " branch at line " + strconv.Itoa(t.lineOf(int(t.tok(e).Start))) +
		" is portable: let hipcc take it, for example with " + cond + " on line " + strconv.Itoa(t.lineOf(int(t.tok(h).Start)))
}

// enclosingConditional returns the position of the "#" of the #if, #ifdef,
// #ifndef, #elif or #else whose branch holds the token k, or -1.
func (t *translator) enclosingConditional(k int) int {
	depth := 0
	for i := len(t.scopes) - 1; i >= 0; i-- {
		h := int(t.scopes[i])
		if h >= k || !t.isByte(h, '#') || !t.tok(h).Directive {
			continue
		}
		switch string(t.text(h + 1)) {
		case "endif":
			depth++
		case "else", "elif":
			if depth == 0 {
				return h
			}
		case "if", "ifdef", "ifndef":
			if depth > 0 {
				depth--
				continue
			}
			return h
		}
	}
	return -1
}

// asmTemplate returns the text of the string literals of an asm statement's
// template (its arguments run from the token from to the one before
// close), up to the first colon: escapes such as \n are kept as written.
func (t *translator) asmTemplate(from, close int) []byte {
	var b []byte
	for i := from; i < close; i++ {
		tk := t.tok(i)
		if tk.Kind == lex.Punct && (t.is(i, ":") || t.is(i, "::")) {
			break
		}
		if tk.Kind != lex.String {
			continue
		}
		text := t.text(i)
		if q := bytes.IndexByte(text, '"'); q >= 0 && len(text) >= q+2 {
			b = append(b, text[q+1:len(text)-1]...) // no prefix (L, u8, ...) nor quotes
		}
		b = append(b, '\n')
	}
	return b
}

type asmLanguage int

const (
	asmPTX   asmLanguage = iota // PTX, or not known to be anything else
	asmEmpty                    // no instructions: a compiler barrier
	asmAMD                      // AMDGCN assembly
	asmCPU                      // no PTX instruction, nor AMDGCN: a CPU's assembly
)

// ptxPlainWords are the PTX instructions written without a suffix.
var ptxPlainWords = map[string]bool{"trap": true, "exit": true, "ret": true, "brkpt": true, "bra": true, "call": true, "pmevent": true}

// asmKind tells what language an asm template is written in, from the
// first word of each statement: AMDGCN instructions begin v_, s_, ds_,
// buffer_, global_, flat_, scratch_, image_ or tbuffer_ and carry no dot,
// while nearly every PTX instruction carries a type or state suffix after
// one (mov.u32, ld.global.nc, mma.sync). A template with an AMDGCN
// instruction and no dotted one is AMDGCN; one without instructions is
// empty; one whose instructions all lack a dot and are neither AMDGCN nor
// one of PTX's few plain ones (trap, exit, ret, bra...) is a CPU's (x86's
// fldcw and rdtsc, Arm's dmb ish, PowerPC's mffs): whether it is depends
// on where it is (see inlineAsm); anything else counts as PTX.
func asmKind(template []byte) asmLanguage {
	if bytes.Contains(template, []byte("\\\n")) || !isASCII(template) {
		return asmKindOf(template)
	}
	// One pass over the template, as asmKindOf splits it: statements end
	// at newlines (written \n or not), semicolons and braces, words at
	// ASCII white space (\t written or not); of a statement, only its
	// first two words count.
	var a asmWords
	var words [2][]byte
	nw, ws := 0, -1 // words of the statement so far; where the current word began
	for i := 0; i <= len(template); i++ {
		c, sep := byte(0), true // the end of the template ends a statement
		if i < len(template) {
			c, sep = template[i], false
		}
		space := false
		switch c {
		case '\\':
			if i+1 < len(template) && template[i+1] == 'n' {
				sep = true
			} else if i+1 < len(template) && template[i+1] == 't' {
				space = true
			}
		case '\n', ';', '{', '}':
			sep = true
		case ' ', '\t', '\v', '\f', '\r':
			space = true
		}
		if !sep && !space {
			if ws < 0 {
				ws = i
			}
			continue
		}
		if ws >= 0 {
			if nw < len(words) {
				words[nw] = template[ws:i]
			}
			nw, ws = nw+1, -1
		}
		if sep {
			a.statement(words[:min(nw, len(words))])
			nw = 0
		}
		if c == '\\' {
			i++ // the escape's letter
		}
	}
	return a.kind()
}

// isASCII reports whether b has only ASCII bytes.
func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// asmWords gathers what the statements of an asm template begin with.
type asmWords struct{ amd, other, ptx bool }

// statement takes the first words of one statement (at most two).
func (a *asmWords) statement(words [][]byte) {
	if len(words) == 0 {
		return
	}
	w := words[0]
	if w[0] == '@' && len(words) > 1 { // a PTX predicate: @p bra
		w = words[1]
	}
	switch {
	case w[len(w)-1] == ':' || !(w[0] >= 'a' && w[0] <= 'z' || w[0] >= 'A' && w[0] <= 'Z'):
		// A label, a directive (.reg), a comment or an operand.
	case bytes.IndexByte(w, '.') >= 0 || ptxPlainWords[string(w)]:
		a.other, a.ptx = true, true
	case amdMnemonic(w):
		a.amd = true
	default:
		a.other = true
	}
}

// kind is the language of the statements taken.
func (a *asmWords) kind() asmLanguage {
	switch {
	case a.amd && !a.other:
		return asmAMD
	case !a.amd && !a.other:
		return asmEmpty
	case !a.amd && !a.ptx:
		return asmCPU
	}
	return asmPTX
}

// asmKindOf is asmKind by replacing the escapes and splitting the text,
// for any template (a line continuation, bytes outside ASCII).
func asmKindOf(template []byte) asmLanguage {
	// Statements end at newlines (written \n) and semicolons; a line
	// continuation inside the literal joins its lines.
	text := bytes.ReplaceAll(template, []byte("\\\n"), nil)
	text = bytes.ReplaceAll(bytes.ReplaceAll(text, []byte(`\n`), []byte("\n")), []byte(`\t`), []byte(" "))
	var a asmWords
	for _, stmt := range bytes.FieldsFunc(text, func(r rune) bool { return r == '\n' || r == ';' || r == '{' || r == '}' }) {
		words := bytes.Fields(stmt)
		a.statement(words[:min(len(words), 2)])
	}
	return a.kind()
}

// amdMnemonic reports whether w begins as AMDGCN instructions do.
func amdMnemonic(w []byte) bool {
	for _, p := range []string{"v_", "s_", "ds_", "buffer_", "global_", "flat_", "scratch_", "image_", "tbuffer_"} {
		if bytes.HasPrefix(w, []byte(p)) {
			return true
		}
	}
	return false
}

// stringLiteral never rewrites a string, but PTX in a string (for example
// a macro body later pasted into asm) is still worth a warning.
func (t *translator) stringLiteral(k int) {
	body := t.text(k)
	if !bytes.Contains(body, []byte("wgmma.")) && !bytes.Contains(body, []byte("cp.async.bulk")) {
		return
	}
	if t.tok(k).Directive || t.isAsmArgument(k) {
		t.report(k, diag.Error, "hopper-feature", "PTX for Hopper (wgmma or cp.async.bulk) has no AMD equivalent")
	}
}

func (t *translator) isAsmArgument(k int) bool {
	for j := k - 1; j >= 0 && j > k-4; j-- {
		if t.is(j, "asm") || t.is(j, "__asm__") {
			return true
		}
	}
	return false
}

// filterSuppressed drops diagnostics silenced by "// hipgen:ignore name"
// on their line or the line above ("all" or no name silences every check).
func (t *translator) filterSuppressed() []diag.Diagnostic {
	if len(t.diags) == 0 {
		return nil
	}
	ignores := map[int][]string{}
	for _, tk := range t.comments {
		if !bytes.Contains(t.src[tk.Start:tk.End], []byte("hipgen:ignore")) {
			continue
		}
		text := string(t.src[tk.Start:tk.End])
		i := strings.Index(text, "hipgen:ignore")
		rest := strings.TrimSuffix(strings.TrimSpace(text[i+len("hipgen:ignore"):]), "*/")
		names := strings.FieldsFunc(rest, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
		if len(names) == 0 {
			names = []string{"all"}
		}
		line, _ := t.position(int(tk.Start))
		line += strings.Count(text, "\n")
		ignores[line] = append(ignores[line], names...)
	}
	out := t.diags[:0]
	for _, d := range t.diags {
		if suppressed(ignores[d.Line], d.Check) || suppressed(ignores[d.Line-1], d.Check) {
			continue
		}
		out = append(out, d)
	}
	return out
}

func suppressed(names []string, check string) bool {
	for _, n := range names {
		if n == check || n == "all" {
			return true
		}
	}
	return false
}

// builtinArgument handles threadIdx.x (blockIdx, blockDim, gridDim) passed
// whole to a function, as in min(n, blockDim.x) or tile.shfl_down(
// threadIdx.x, 1). In CUDA it is an unsigned int; in HIP it is a proxy
// object that converts to one, so overloads become ambiguous, templates
// deduce the proxy type and printf receives an object. The cast restores
// CUDA's type. With --launch=ggl a launch's configuration and arguments
// become those of hipLaunchKernelGGL, a variadic template, and are cast
// alike (so that translating the output again casts nothing more).
func (t *translator) builtinArgument(k int) {
	c := string(t.text(k + 2))
	if c != "x" && c != "y" && c != "z" {
		return
	}
	ggl := t.opts.Launch == LaunchGGL
	if !(t.is(k-1, "(") || t.is(k-1, ",") || ggl && t.launchBracket(k-1) == '<') || !(t.is(k+3, ")") || t.is(k+3, ",") || ggl && t.launchBracket(k+3) == '>') {
		return
	}
	if ggl && t.launchBracket(k-1) == '<' {
		t.insert(int(t.tok(k).Start), "(unsigned)")
		return
	}
	// Find the call's name: walk back to the unmatched '('.
	depth := 0
	for j := k - 1; j >= 0 && j > k-64; j-- {
		if t.launchBracket(j) == '<' {
			if ggl && depth == 0 {
				t.insert(int(t.tok(k).Start), "(unsigned)")
			}
			return
		}
		switch string(t.text(j)) {
		case ")", "]", "}":
			depth++
		case "[", "{":
			depth--
		case "(":
			if depth > 0 {
				depth--
				continue
			}
			if t.is(j-1, ptxValue) {
				return // hipgen_ptx_value(lvalue, threadIdx.x, ...) assigns it: a translation's own, from mov %tid.x
			}
			if t.tok(j-1).Kind == lex.Ident && !controlWords()[string(t.text(j-1))] || ggl && t.launchBracket(j-1) == '>' {
				t.insert(int(t.tok(k).Start), "(unsigned)")
			}
			return
		case ";":
			return
		}
	}
}

// libcuxxHostOnly are the types of cuda::std that work in CUDA device code
// but whose std:: counterparts do not in HIP device code.
var libcuxxHostOnly = map[string]bool{"atomic": true, "atomic_ref": true, "atomic_flag": true, "barrier": true,
	"latch": true, "counting_semaphore": true, "binary_semaphore": true}

// libcuxxMemoryOrders are the names libcu++ declares in cuda:: as well
// as in cuda::std::, for the standard library's memory orders.
var libcuxxMemoryOrders = map[string]bool{
	"memory_order": true, "memory_order_relaxed": true, "memory_order_consume": true, "memory_order_acquire": true,
	"memory_order_release": true, "memory_order_acq_rel": true, "memory_order_seq_cst": true,
}

// controlWords look like calls but are not.
var controlWords = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"if": true, "while": true, "for": true, "switch": true, "return": true, "sizeof": true, "alignof": true, "decltype": true, "defined": true}
})

// cppKeywords may stand before a leading "::" without qualifying it.
var cppKeywords = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"return": true, "case": true, "throw": true, "co_return": true, "co_yield": true, "else": true,
		"do": true, "new": true, "delete": true, "typename": true, "const": true, "static": true,
		"inline": true, "constexpr": true, "sizeof": true, "using": true, "volatile": true,
		"extern": true, "friend": true, "virtual": true, "auto": true, "decltype": true,
		"__device__": true, "__host__": true, "__global__": true, "__forceinline__": true,
	}
})

// computeCapability warns at k, where the device's major or minor version
// is read, that AMD GPUs report their generation there. Files that read
// them read them often, to the same effect: once per file.
func (t *translator) computeCapability(k int) {
	t.report(k, diag.Warning, "compute-capability", "a device's major and minor version (hipDeviceProp_t, hipDeviceAttributeComputeCapabilityMajor/Minor) are the AMD GPU's generation, not an NVIDIA compute capability (gfx90a reads 9.0, gfx942 9.4, gfx1030 10.3): tests such as major >= 7 or 100 * major + 10 * minor >= 800 take NVIDIA paths (Volta, Ampere, Hopper) on AMD GPUs, whose device code may be compiled out there; tell AMD GPUs apart by gcnArchName or __HIP_PLATFORM_AMD__"+oncePerFile)
}

// fileReadsDeviceProps reports whether the file reads device properties
// (cudaDeviceProp, cudaGetDeviceProperties), which make a member named
// major or minor likely a compute capability.
func (t *translator) fileReadsDeviceProps() bool {
	return t.facts.deviceProps.get(func() bool { return containsText(t.src, "DeviceProp") })
}

// memberRenames are members of CUDA's structs that HIP's counterparts
// name differently: CUmemAllocationProp's requestedHandleTypes is
// hipMemAllocationProp's requestedHandleType, of the same type (cuda-samples'
// simpleVulkanMMAP).
var memberRenames = map[string]string{"requestedHandleTypes": "requestedHandleType"}

// propMember is how a member of cudaDeviceProp that hipDeviceProp_t
// lacks before a ROCm release is translated for an older one.
type propMember struct {
	since  Version // the first release whose hipDeviceProp_t has it
	before string  // a member of the older hipDeviceProp_t
	value  string  // or the value itself
	why    string
	// attribute names the hipDeviceAttribute that gives the fact in the
	// older ROCm, where neither a member nor a value stands in; why is
	// then made from it (see reason).
	attribute string
}

// reason says why m's translation is what it is.
func (m propMember) reason() string {
	if m.attribute != "" {
		return "hipDeviceGetAttribute with hipDeviceAttribute" + m.attribute + " gives it"
	}
	return m.why
}

// propMembers are cudaDeviceProp members that hipDeviceProp_t gained in a
// later ROCm release (6.0 reshaped it after CUDA's, hipDeviceProp_tR0600),
// with what stands in for them before it: another member, or a value the
// member has on every AMD GPU. CUDA 11.8's cudaDeviceProp has 38 members
// that ROCm 5.2's hipDeviceProp_t lacks; 6.0 has them all.
var propMembers = sync.OnceValue(func() map[string]propMember {
	return map[string]propMember{
		"sharedMemPerBlockOptin":     {since: rocm60, before: "sharedMemPerBlock", why: "the most shared memory (LDS) an AMD GPU gives a block, with no opt-in"},
		"sharedMemPerMultiprocessor": {since: rocm60, before: "maxSharedMemoryPerMultiProcessor", why: "the same fact under its older name"},
		"streamPrioritiesSupported":  {since: rocm60, value: "1", why: "the value HIP gives it on every AMD GPU (stream priorities work on all of them)"},
		// CUDA's deprecated flag (asyncEngineCount replaced it): every AMD GPU
		// copies between host and device while it runs kernels (its DMA
		// engines), as Rodinia's huffman and gaussian ask.
		"deviceOverlap": {since: rocm60, value: "1", why: "every AMD GPU copies between host and device while it runs kernels (CUDA deprecated the member for asyncEngineCount)"},
		// Neither a member nor a value stands in: reported (hipcc: "no member
		// named"), with where the older ROCm has the fact: a device attribute
		// for most (Tony-Tan/CUDA_Freshman's device query reads
		// maxTexture1DLayered).
		"uuid":                              {since: rocm60, why: "hipDeviceGetUuid gives it"},
		"reservedSharedMemPerBlock":         {since: rocm60, why: "ROCm 5.x has no attribute for it either; AMD GPUs reserve no shared memory (LDS) of a block for themselves"},
		"accessPolicyMaxWindowSize":         {since: rocm60, attribute: "AccessPolicyMaxWindowSize"},
		"asyncEngineCount":                  {since: rocm60, attribute: "AsyncEngineCount"},
		"canUseHostPointerForRegisteredMem": {since: rocm60, attribute: "CanUseHostPointerForRegisteredMem"},
		"computePreemptionSupported":        {since: rocm60, attribute: "ComputePreemptionSupported"},
		"globalL1CacheSupported":            {since: rocm60, attribute: "GlobalL1CacheSupported"},
		"hostNativeAtomicSupported":         {since: rocm60, attribute: "HostNativeAtomicSupported"},
		"localL1CacheSupported":             {since: rocm60, attribute: "LocalL1CacheSupported"},
		"luid":                              {since: rocm60, attribute: "Luid"},
		"luidDeviceNodeMask":                {since: rocm60, attribute: "LuidDeviceNodeMask"},
		"maxBlocksPerMultiProcessor":        {since: rocm60, attribute: "MaxBlocksPerMultiProcessor"},
		"maxSurface1D":                      {since: rocm60, attribute: "MaxSurface1D"},
		"maxSurface1DLayered":               {since: rocm60, attribute: "MaxSurface1DLayered"},
		"maxSurface2D":                      {since: rocm60, attribute: "MaxSurface2D"},
		"maxSurface2DLayered":               {since: rocm60, attribute: "MaxSurface2DLayered"},
		"maxSurface3D":                      {since: rocm60, attribute: "MaxSurface3D"},
		"maxSurfaceCubemap":                 {since: rocm60, attribute: "MaxSurfaceCubemap"},
		"maxSurfaceCubemapLayered":          {since: rocm60, attribute: "MaxSurfaceCubemapLayered"},
		"maxTexture1DLayered":               {since: rocm60, attribute: "MaxTexture1DLayered"},
		"maxTexture1DMipmap":                {since: rocm60, attribute: "MaxTexture1DMipmap"},
		"maxTexture2DGather":                {since: rocm60, attribute: "MaxTexture2DGather"},
		"maxTexture2DLayered":               {since: rocm60, attribute: "MaxTexture2DLayered"},
		"maxTexture2DLinear":                {since: rocm60, attribute: "MaxTexture2DLinear"},
		"maxTexture2DMipmap":                {since: rocm60, attribute: "MaxTexture2DMipmap"},
		"maxTexture3DAlt":                   {since: rocm60, attribute: "MaxTexture3DAlt"},
		"maxTextureCubemap":                 {since: rocm60, attribute: "MaxTextureCubemap"},
		"maxTextureCubemapLayered":          {since: rocm60, attribute: "MaxTextureCubemapLayered"},
		"multiGpuBoardGroupID":              {since: rocm60, attribute: "MultiGpuBoardGroupID"},
		"persistingL2CacheMaxSize":          {since: rocm60, attribute: "PersistingL2CacheMaxSize"},
		"regsPerMultiprocessor":             {since: rocm60, attribute: "MaxRegistersPerMultiprocessor"},
		"singleToDoublePrecisionPerfRatio":  {since: rocm60, attribute: "SingleToDoublePrecisionPerfRatio"},
		"surfaceAlignment":                  {since: rocm60, attribute: "SurfaceAlignment"},
		"unifiedAddressing":                 {since: rocm60, attribute: "UnifiedAddressing"},
	}
})

// rocm60 is the release whose hipDeviceProp_t has CUDA's members.
var rocm60 = Version{Major: 6, Minor: 0}

// assignOps are the operators that store into their left operand.
var assignOps = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"=": true, "+=": true, "-=": true, "*=": true, "/=": true, "%=": true,
		"&=": true, "|=": true, "^=": true, "<<=": true, ">>=": true}
})

// modifies reports whether the operand between the tokens before and
// after is stored into or has its address taken: a value cannot stand in
// for it there. A '&' before it counts even where it is binary (a & p.x),
// which leaves such a use as it is, reported.
func (t *translator) modifies(before, after int) bool {
	if after < len(t.toks) && (assignOps()[string(t.text(after))] || t.is(after, "++") || t.is(after, "--")) {
		return true
	}
	return before >= 0 && (t.is(before, "++") || t.is(before, "--") || t.is(before, "&"))
}

// propMember rewrites the access of the device property name at k, which
// hipDeviceProp_t lacks in the target ROCm (see propMembers).
func (t *translator) propMember(k int, name string) {
	m := propMembers()[name]
	lacks := "hipDeviceProp_t has no " + name + " before ROCm " + m.since.String()
	if m.before != "" {
		t.replace(k, m.before)
		t.report(k, diag.Note, "unsupported-api", lacks+": became "+m.before+", "+m.reason())
		return
	}
	if m.value == "" {
		t.report(k, diag.Warning, "unsupported-api", lacks+" (if this is a device's properties): "+m.reason())
		return
	}
	// recv.name becomes ((void)(recv), value): the object is still
	// evaluated, and the value binds as the member access did.
	start := t.receiverStart(k - 1)
	if start < 0 || t.modifies(start-1, k+1) {
		t.report(k, diag.Error, "unsupported-api", lacks+", and a value cannot stand in for it here: use "+m.value+", "+m.reason())
		return
	}
	t.insert(int(t.tok(start).Start), "((void)(")
	t.edits = append(t.edits, edit{int(t.tok(k - 1).Start), int(t.tok(k).End), "), " + m.value + ")"})
	t.report(k, diag.Note, "unsupported-api", lacks+": became "+m.value+", "+m.reason())
}

// literalFree reports whether the tokens [from, to) hold no string or
// character literal, which a rewrite that drops them would change.
func (t *translator) literalFree(from, to int) bool {
	for j := from; j < to; j++ {
		if k := t.tok(j).Kind; k == lex.String || k == lex.Char {
			return false
		}
	}
	return true
}

// launchBounds handles __launch_bounds__(T, N[, C]) at k. HIP's macro takes
// at most two arguments and hands the second to amdgpu_waves_per_eu: the
// least number of waves per SIMD the kernel's registers must leave room
// for, where CUDA means the least number of resident blocks of T threads
// per multiprocessor. The third, CUDA 12's most blocks per cluster, has no
// meaning without clusters and is dropped (hipcc rejects it).
func (t *translator) launchBounds(k int) {
	args, close, ok := t.call(k)
	if !ok || len(args) < 2 || len(args) > 3 {
		return
	}
	if len(args) == 3 && t.literalFree(args[1][1]+1, close) {
		from, to := int(t.tok(args[1][1]).End), int(t.tok(close).Start)
		if !bytes.Contains(t.src[from:to], []byte("/*")) && !bytes.Contains(t.src[from:to], []byte("//")) {
			t.edits = append(t.edits, edit{from, to, ""})
		} else {
			// Token by token: a comment between them stays.
			for j := args[1][1] + 1; j < close; j++ {
				t.edits = append(t.edits, edit{int(t.tok(j).Start), int(t.tok(j).End), ""})
			}
		}
		t.report(args[2][0], diag.Note, checkLaunchBounds, "the third argument of __launch_bounds__ (most blocks per cluster, CUDA 12) is dropped: HIP's takes two, and AMD GPUs have no thread block clusters")
	}
	n, nok := t.intArg(args[1])
	if nok && n == 1 {
		return // at least one block, at least one wave: both hold anyway
	}
	msg := "under CUDA the second argument of __launch_bounds__ is the least number of resident blocks per multiprocessor, but HIP hands it to amdgpu_waves_per_eu, the least number of waves per SIMD"
	if th, tok := t.intArg(args[0]); tok && nok {
		threads, blocks := strconv.FormatUint(th, 10), strconv.FormatUint(n, 10)
		msg += ": " + blocks + " blocks of " + threads + " threads are " + waves(ceilDiv(n*th, 256)) + " per SIMD on CDNA (64-wide waves, 4 SIMDs per CU) and " + strconv.FormatUint(ceilDiv(n*th, 64), 10) + " on RDNA (32-wide, 2 per CU), where HIP asks for " + blocks
	}
	t.report(args[1][0], diag.Note, checkLaunchBounds, msg+"; a value above what the kernel needs caps its registers and can make it spill")
}

// checkLaunchBounds is the check of __launch_bounds__ arguments.
const checkLaunchBounds = "launch-bounds"

// intArg returns the value of an argument that is one integer literal.
func (t *translator) intArg(a [2]int) (uint64, bool) {
	if a[0] != a[1] || t.tok(a[0]).Kind != lex.Number {
		return 0, false
	}
	v, err := strconv.ParseUint(strings.TrimRight(string(t.text(a[0])), "uUlL"), 0, 32)
	return v, err == nil && v > 0
}

func ceilDiv(a, b uint64) uint64 { return (a + b - 1) / b }

// waves is "1 wave" or "n waves".
func waves(n uint64) string {
	if n == 1 {
		return "1 wave"
	}
	return strconv.FormatUint(n, 10) + " waves"
}

// floatsToBFloat162 rewrites the call __floats2bfloat162_rn(a, b) at k,
// which HIP lacks, as __float22bfloat162_rn(make_float2(a, b)), the same
// conversion (each float rounded to nearest even) of a float2, which HIP
// has from ROCm 5.7 and hipgen polyfills before. It reports whether it
// did; a call with other arguments is left to the table, which reports it.
func (t *translator) floatsToBFloat162(k int) bool {
	args, close, ok := t.bfloat16Call(k, "__floats2bfloat162_rn")
	if !ok || len(args) != 2 {
		return false
	}
	t.insert(int(t.tok(k+1).End), "make_float2(")
	t.insert(int(t.tok(close).Start), ")")
	const to = "__float22bfloat162_rn"
	t.renameBFloat16Call(k, to)
	t.report(k, diag.Note, "polyfill", "__floats2bfloat162_rn(a, b) became "+to+"(make_float2(a, b)): HIP has no __floats2bfloat162_rn, and the float2 form converts the same way"+oncePerFile)
	return true
}

// makeBFloat162 rewrites the call make_bfloat162(x, y) at k, which CUDA
// 12.2 added and no HIP release has (ROCm/clr's amd_hip_bf16.h to 6.x;
// FlashInfer's vector types), as __halves2bfloat162(x, y), which pairs the
// same two values, HIP's from ROCm 5.7 and a polyfill before. It reports
// whether it did.
func (t *translator) makeBFloat162(k int) bool {
	args, _, ok := t.bfloat16Call(k, "make_bfloat162")
	if !ok || len(args) != 2 {
		return false
	}
	const to = "__halves2bfloat162"
	t.renameBFloat16Call(k, to)
	t.report(k, diag.Note, "polyfill", "make_bfloat162(x, y) became "+to+"(x, y): HIP has no make_bfloat162, and "+to+" pairs the same values"+oncePerFile)
	return true
}

// bfloat16Call returns the arguments and the closing parenthesis of the
// call at k of the CUDA bfloat16 function name, which a rewrite may
// replace: not when the file defines a function of that name itself (a
// fallback for older CUDA releases, compiled for HIP), nor at the name of
// such a definition.
func (t *translator) bfloat16Call(k int, name string) (args [][2]int, close int, ok bool) {
	if !t.plainCall(k) || t.definesFunction(name) {
		return nil, 0, false
	}
	args, close, ok = t.call(k)
	if !ok || t.is(close+1, "{") {
		return nil, 0, false
	}
	return args, close, true
}

// renameBFloat16Call renames the call at k to the bfloat16 function to:
// the polyfill for the target ROCm, or the table's HIP name.
func (t *translator) renameBFloat16Call(k int, to string) {
	if t.usePolyfill(k, []byte(to)) {
		return
	}
	name := to
	if e, ok := t.lookupIdent([]byte(to)); ok {
		t.applyEntry(k, e)
		name = e.HIP
	}
	t.setReplacement(k, name)
}

// floatToBFloat162 rewrites __float2bfloat162_rn(a), which HIP lacks in
// every release (ROCm/clr's amd_hip_bf16.h to 6.x; HeCBench's
// addBiasResidualLayerNorm), as __bfloat162bfloat162(__float2bfloat16_rn(a)):
// a rounded to the nearest bfloat16 in both halves, as CUDA's does. Each
// of the two becomes HIP's for the target ROCm, or a polyfill before 5.7.
func (t *translator) floatToBFloat162(k int) bool {
	args, close, ok := t.bfloat16Call(k, "__float2bfloat162_rn")
	if !ok || len(args) != 1 {
		return false
	}
	name := func(cuda string) string {
		if t.usePolyfill(k, []byte(cuda)) {
			return t.names.polyfills[cuda].name
		}
		if e, ok := t.lookupIdent([]byte(cuda)); ok {
			t.applyEntry(k, e)
			return e.HIP
		}
		return cuda
	}
	inner, outer := name("__float2bfloat16_rn"), name("__bfloat162bfloat162")
	// Each look-up renamed the token; the outer name is the one to keep.
	tk := t.tok(k)
	t.edits = slices.DeleteFunc(t.edits, func(e edit) bool { return e.start == int(tk.Start) && e.end == int(tk.End) })
	t.replace(k, outer)
	t.insert(int(t.tok(k+1).End), inner+"(")
	t.insert(int(t.tok(close).Start), ")")
	t.report(k, diag.Note, "polyfill", "__float2bfloat162_rn(a) became "+outer+"("+inner+"(a)): HIP has no __float2bfloat162_rn, and a rounded to bfloat16 and then paired converts the same way"+oncePerFile)
	return true
}

// registerKeyword drops the storage class register, which C++17 removed:
// nvcc takes it under -std=c++17 (and CUDA 12's default), clang rejects
// it ("ISO C++17 does not allow 'register' storage class specifier"). It
// never changed what a program does. A C file keeps it, and so does an
// explicit register variable (register int sp asm("sp")), whose
// declaration needs the word.
func (t *translator) registerKeyword(k int) {
	if strings.HasSuffix(t.name, ".c") || k+1 >= len(t.toks) || t.is(k-1, "::") || t.is(k-1, ".") || t.is(k-1, "->") {
		return
	}
	for j := k + 1; j < len(t.toks); j++ {
		if t.is(j, ";") || t.is(j, "{") || t.is(j, "}") || t.tok(j).LineStart && t.tok(j).Directive != t.tok(k).Directive {
			break
		}
		if t.tok(j).Kind == lex.Ident && (t.is(j, "asm") || t.is(j, "__asm__") || t.is(j, "__asm")) {
			return
		}
	}
	// The blanks after the word go with it, unless a line ends there.
	end := int(t.tok(k).End)
	if next := int(t.tok(k + 1).Start); bytes.IndexByte(t.src[end:next], '\n') < 0 {
		end = next
	}
	t.edits = append(t.edits, edit{int(t.tok(k).Start), end, ""})
}

// ownMacroUse reports whether the identifier k, named name, is a use of
// a macro of that name which the file defines above it, outside the
// blocks hipcc never compiles (HeCBench's shuffle: #define __shfl(v, d)
// __shfl_sync(0xffffffff, v, d)). The macro's body is translated; a use
// rewritten as the CUDA function of that name would no longer fit the
// macro (a width argument added to its two parameters).
func (t *translator) ownMacroUse(k int, name string) bool {
	at := t.definesAt()[name]
	if len(at) == 0 || int(at[0]) > k || t.tok(k).Directive && t.isMacroNameOperand(k) {
		return false
	}
	macros := t.replay
	if macros == nil {
		macros = t.fileMacros()
	}
	return macros[name].live
}

// isVectorType reports whether name is one of CUDA's vector types (float4,
// uchar2, ...), which HIP makes HIP_vector_type instances, with compound
// assignments as members. A test, not a table, so that no process builds
// one at start.
func isVectorType(name string) bool {
	n := len(name)
	if n < 2 || name[n-1] < '1' || name[n-1] > '4' {
		return false
	}
	switch name[:n-1] {
	case "char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "longlong", "ulonglong", "float", "double":
		return true
	}
	return false
}

// vectorZeroInit empties the initializer "= { 0 }" at k (the =) of a
// variable or array of a CUDA vector type: CUDA's vector types are
// aggregates, so the list sets the first member (or element) to 0 and the
// rest to zero too, while HIP's are classes whose one-value constructor is
// explicit, which a list may not call ("no viable conversion from 'int' to
// 'uint2'", ccminer's uint2 keccak_gpu_state[25] = { 0 }). "{}" is the same
// zero for both.
func (t *translator) vectorZeroInit(k int) {
	j := k - 1
	for t.isByte(j, ']') && !t.tok(j).Directive { // the array's bounds, short expressions
		open := j - 1
		for open >= 0 && open > j-64 && !(t.isByte(open, '[') && t.matching(open) == j) {
			open--
		}
		if open < 0 || open == j-64 {
			return
		}
		j = open - 1
	}
	if j < 1 || t.tok(j).Kind != lex.Ident || t.tok(j-1).Kind != lex.Ident || !isVectorType(string(t.text(j-1))) ||
		t.tok(k).Directive != t.tok(j-1).Directive || t.isByte(j-2, '.') || t.is(j-2, "->") || t.is(j-2, "::") {
		return
	}
	from, to := int(t.tok(k+1).End), int(t.tok(k+3).Start)
	if len(bytes.TrimSpace(t.src[from:int(t.tok(k+2).Start)])) > 0 || len(bytes.TrimSpace(t.src[int(t.tok(k+2).End):to])) > 0 {
		from, to = int(t.tok(k+2).Start), int(t.tok(k+2).End) // comments in the list stay
	}
	t.edits = append(t.edits, edit{from, to, ""})
	t.report(k+2, diag.Note, "call-fix", "= { 0 } for a CUDA vector type became = {}: CUDA's vector types are aggregates, which the list sets to zero, while HIP's have an explicit constructor from one value, which a list may not call; {} is the same zero for both"+oncePerFile)
}

// hipPlatformGuard opens the block that keeps a definition for CUDA only.
const hipPlatformGuard = "#if !defined(__HIP_PLATFORM_AMD__)"

// vectorOperator keeps for CUDA only a definition, at the operator
// keyword k, of +=, -=, *= or /= for a CUDA vector type and itself
// (cuda-samples' helper_math.h, which projects copy: void
// operator+=(float4 &a, float4 b)). HIP's vector types have these as
// members, computing component by component the same way, and hipcc finds
// a call ambiguous between the two (HeCBench's hexciton).
func (t *translator) vectorOperator(k int) {
	switch string(t.text(k + 1)) {
	case "+=", "-=", "*=", "/=":
	default:
		return
	}
	args, close, ok := t.call(k + 1)
	if !ok || len(args) != 2 || !t.is(close+1, "{") {
		return
	}
	typeOf := func(a [2]int) (string, bool) {
		j := a[0]
		if t.is(j, "const") {
			j++
		}
		if j > a[1] || !isVectorType(string(t.text(j))) {
			return "", false
		}
		return string(t.text(j)), t.is(j+1, "&")
	}
	typ, ref := typeOf(args[0])
	other, _ := typeOf(args[1])
	end := t.matching(close + 1)
	if typ == "" || !ref || other != typ || end < 0 || end+1 < len(t.toks) && !t.tok(end+1).LineStart {
		return
	}
	start := k
	for j := k - 1; j >= 0 && !t.tok(j).Directive && (t.tok(j).Kind == lex.Ident || t.is(j, "&") || t.is(j, "*")); j-- {
		start = j
	}
	if !t.tok(start).LineStart {
		return
	}
	if t.insideHIPGuard(start) {
		return // translated before
	}
	// The guard goes at the start of the line: past the blanks the lexer
	// counts as space, and only where a newline ends the line before.
	off := int(t.tok(start).Start)
	for off > 0 && strings.IndexByte(" \t\r\f\v", t.src[off-1]) >= 0 {
		off--
	}
	if off > 0 && t.src[off-1] != '\n' {
		return
	}
	t.insert(off, hipPlatformGuard+"\n")
	t.insert(int(t.tok(end).End), "\n#endif")
	t.report(k, diag.Note, "builtin-redefinition", "+=, -=, *= and /= of a CUDA vector type and itself (such as void operator+=(float4 &a, float4 b)) are members of HIP's vector types, computing component by component as the file's own do, and hipcc finds a call ambiguous between the two: each such definition is kept for CUDA only ("+hipPlatformGuard+")"+oncePerFile)
}

// ffsllArgument converts the argument of __ffsll(x) at k to long long, the
// only type CUDA's takes: HIP has overloads for long long and unsigned long
// long, and a uint64_t (unsigned long on Linux) or a long matches neither
// exactly, so hipcc found the call ambiguous (HeCBench's langford).
func (t *translator) ffsllArgument(k int) {
	args, close, ok := t.call(k)
	if !ok || len(args) != 1 || t.is(k-1, ".") || t.is(k-1, "->") || t.is(k-1, "::") {
		return
	}
	a := args[0]
	if t.is(a[0], "(") && t.is(a[0]+1, "long") && t.is(a[0]+2, "long") && t.is(a[0]+3, ")") {
		return // translated before
	}
	t.castToLongLong(a[0], close)
}

// castToLongLong converts the argument from the token first to the one
// before close, the call's ')', to long long.
func (t *translator) castToLongLong(first, close int) {
	t.insert(int(t.tok(first).Start), "(long long)(")
	t.insert(int(t.tok(close).Start), ")")
}

// dim3FromUint3 makes make_uint3(x, y, z) at k dim3(x, y, z) where it
// initialises or is assigned to a variable declared as a dim3 (grid =
// make_uint3(n, 1, 1); HeCBench's tpacf): CUDA's dim3 is built from a
// uint3, HIP's only from three numbers, so hipcc found no assignment. An
// assignment goes by the nearest declaration of the name above it (a type
// word right before the name): cuda-samples' fluidsGL has a uint3 grid in
// one function and a dim3 grid in another. It reports whether it
// rewrote.
func (t *translator) dim3FromUint3(k int) bool {
	if !t.is(k-1, "=") || t.tok(k-2).Kind != lex.Ident || !t.is(k+1, "(") || t.is(k-3, ".") || t.is(k-3, "->") {
		return false
	}
	name := string(t.text(k - 2))
	decl := k - 2 // the name as declared: here, or the nearest above
	if t.tok(k-3).Kind != lex.Ident {
		decl = -1
		for j := k - 3; j >= 1 && decl < 0; j-- {
			if t.tok(j).Kind == lex.Ident && string(t.text(j)) == name && t.tok(j-1).Kind == lex.Ident && !cppKeywords()[string(t.text(j-1))] {
				decl = j
			}
		}
	}
	if decl < 1 || !t.is(decl-1, "dim3") {
		return false
	}
	t.replace(k, "dim3")
	return true
}

// insideHIPGuard reports whether the innermost conditional block around
// the token k is the #if branch of hipPlatformGuard (vectorOperator's own,
// from an earlier translation: the runtime include may have been put
// between the two since).
func (t *translator) insideHIPGuard(k int) bool {
	h := t.enclosingConditional(k)
	return h >= 0 && t.is(h+1, "if") && t.span(h, t.endOfDirective(h)-1) == hipPlatformGuard
}
