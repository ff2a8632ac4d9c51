package sources

import (
	"bytes"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/hipgen/hipgen/diag"
	"github.com/hipgen/hipgen/sources/hipmap"
	"github.com/hipgen/hipgen/sources/lex"
)

// hipcc does not define __CUDA_ARCH__, nor the include guards of CUDA
// library headers (hipgen never lets those in). Blocks under "#if __CUDA_ARCH__ >=
// 800" are therefore never compiled for AMD GPUs: the translator says so
// once per block, and findings inside such a block become notes, since
// they cannot break the HIP build.
//
// The policy for every other use of __CUDA_ARCH__ (see cudaArchUse):
//   - A test of its existence asks "is this the device pass?", which has an
//     exact HIP spelling: #ifdef, #ifndef, defined(__CUDA_ARCH__) anywhere in
//     a condition or a macro body, and a bare truth test in #if or #elif
//     ("#if __CUDA_ARCH__", "#if !__CUDA_ARCH__ && X") all become
//     __HIP_DEVICE_COMPILE__.
//   - A comparison in #if or #elif stays: the preprocessor reads the
//     undefined macro as 0, so "at least sm_XX" tests are false (the block
//     analysis above) and "older than sm_XX" tests are true (olderArchBlock).
//   - A value in code or in a macro body (constexpr int cc = __CUDA_ARCH__;
//     static_assert, template arguments, printf) becomes HIPGEN_CUDA_ARCH,
//     which the polyfill block defines as 1 in the device pass only, like
//     __CUDA_ARCH__ under nvcc. 1 is below every NVIDIA compute capability,
//     so code tests such as "cc >= GGML_CUDA_CC_VOLTA" pick the portable
//     fallback, in agreement with the #if tests the preprocessor reads as
//     0; and it is not 0, so a truth test still means "device pass".
// A file that defines __CUDA_ARCH__ itself (to emulate an architecture)
// keeps every use: they mean its definition.

const (
	checkCUDAArch   = "cuda-arch-guard"
	checkHIPDefines = "hip-defines" // the CUDA alternative of a project's HIP switch
)

// cudaOnlyGuards are include guards of CUDA library headers without a
// HIP counterpart guard; code such as cuda-samples' helper_cuda.h tests them.
var cudaOnlyGuards = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"CUBLAS_API_H_": true, "_CUFFT_H_": true, "CUSPARSEAPI": true, "CUSOLVER_COMMON_H_": true,
		"CURAND_H_": true, "NVJPEGAPI": true, "NV_NPPIDEFS_H": true, "CUDNN_H_": true, "CUTENSOR_H": true,
	}
})

// condFrame is one level of #if nesting.
type condFrame struct {
	dead bool // the current branch is never compiled by hipcc
	// included: dead only because of what project headers define
	// (Options.IncludedMacros), which HeaderMacros.Settle learns after
	// the output is made.
	included bool
	zero     bool // dead because the condition is the literal 0 ("#if 0")
	// platform: dead because the condition tests a macro that hipcc
	// defines or not for AMD GPUs (#ifndef __HIP_PLATFORM_AMD__); and
	// elseDead: such a test holds for AMD GPUs, so the #else and #elif
	// branches are the dead ones.
	platform, elseDead bool
	archTest           bool // the #if compared __CUDA_ARCH__ with a version
	// allArch: every branch so far (#if and each #elif) compared
	// __CUDA_ARCH__ with a version, so hipcc takes none of them.
	allArch bool
	device  bool // the current branch is compiled in the device pass only
	host    bool // the current branch is compiled in the host pass only
	// unknown holds, separated by NUL bytes, the macros the #if tests
	// with #ifdef or defined that nothing tells of (see unknownMacro).
	unknown string
	// taken tells, for each of hipcc's passes, whether a branch of this
	// #if chain up to the current one is compiled (see conditionPasses);
	// noDevice, that the current branch is never compiled in the device
	// pass.
	taken    passes
	noDevice bool
	// hip: what the chain's tests of HIP macros say of the current branch
	// and of those after it (see hipBranch).
	hip hipBranch
}

// hipBranch tells what a project's own tests of HIP macros (#ifdef
// USE_ROCM, #ifndef __HIP_PLATFORM_AMD__) say of a branch of an #if chain:
// native, only HIP builds compile it, so its code was written for HIP,
// wavefront width included, and the wave64 rules leave it as it is;
// cudaAlt, only builds where the test fails (CUDA's) compile it. The else
// fields say the same of the #elif and #else branches after it.
type hipBranch struct {
	native, cudaAlt, elseNative, elseCudaAlt bool
	// macro is the HIP macro whose test makes the branch, or the branches
	// after it, cudaAlt (the first one a condition tests).
	macro string
}

// conditional handles #if, #ifdef, #ifndef, #elif, #else and #endif at k.
func (t *translator) conditional(k int, word string) {
	edits := len(t.edits)
	var before passes   // what the chain took before this branch
	var chain hipBranch // what the chain's tests of HIP say
	if n := len(t.conds); n > 0 && (word == "elif" || word == "else") {
		before = t.conds[n-1].taken
		chain = t.conds[n-1].hip
	}
	switch word {
	case "ifdef", "ifndef":
		if onAMD, ok := t.platformMacro(t.text(k + 2)); ok && t.endsDirective(k+3) {
			t.conds = append(t.conds, platformFrame(onAMD == (word == "ifdef")))
			break
		}
		if word == "ifdef" && cudaOnlyGuards()[string(t.text(k+2))] && t.endsDirective(k+3) {
			// The guard of a CUDA header that hipgen never lets in.
			t.conds = append(t.conds, condFrame{dead: true})
			t.report(k+2, diag.Note, checkCUDAArch, string(t.text(k+2))+" guards a CUDA library header, which HIP builds never include: this block is not compiled for AMD GPUs")
			break
		}
		if word == "ifdef" && t.endsDirective(k+3) && t.deadMacroTest(k+2) {
			t.conds = append(t.conds, condFrame{dead: true, included: t.deadInHeaders(k + 2)})
			break
		}
		f := condFrame{}
		if (t.is(k+2, "__CUDA_ARCH__") || t.is(k+2, "__HIP_DEVICE_COMPILE__")) && t.endsDirective(k+3) {
			// cudaArchUse rewrites the macro when the walk reaches it.
			f.device, f.host = word == "ifdef", word == "ifndef"
		} else if word == "ifdef" && t.endsDirective(k+3) && t.tok(k+2).Kind == lex.Ident && t.unknownMacro(string(t.text(k+2))) {
			f.unknown = string(t.text(k + 2))
		}
		t.conds = append(t.conds, f)
	case "if":
		f := t.archCondition(k)
		f.allArch = f.archTest
		t.conds = append(t.conds, f)
	case "elif":
		if n := len(t.conds); n > 0 {
			// The previous branch's state must not colour this one's findings.
			all, taken := t.conds[n-1].allArch, t.conds[n-1].elseDead
			if taken {
				// hipcc took an earlier branch (a platform test, or a
				// comparison that holds for it): this one and those
				// after it are dead, whatever their conditions say.
				t.conds[n-1] = condFrame{dead: true, platform: true, elseDead: true}
				t.updateDeadOnHIP()
				break
			}
			t.conds[n-1] = condFrame{}
			t.updateDeadOnHIP()
			f := t.archCondition(k)
			f.allArch = all && f.archTest
			t.conds[n-1] = f
		}
	case "else":
		if n := len(t.conds); n > 0 {
			f := &t.conds[n-1]
			f.dead, f.zero = false, false // the #else of an arch test is what hipcc compiles
			if f.elseDead {
				f.dead, f.platform, f.elseDead = true, true, false
			} else if f.platform {
				f.platform = false
			}
			f.device, f.host = f.host, f.device
			if f.allArch && t.directiveStart(k+2) && t.is(k+3, "error") {
				t.updateDeadOnHIP()
				t.report(k+3, diag.Error, checkCUDAArch, "hipcc reaches this #error: every branch before it compares __CUDA_ARCH__ with a version, and hipcc does not define __CUDA_ARCH__; choose the branch AMD GPUs take (add || defined(__HIP_PLATFORM_AMD__) to its condition), one that agrees with what the host code picks for them")
			}
		}
	case "endif":
		if n := len(t.conds); n > 0 {
			t.conds = t.conds[:n-1]
		}
	}
	if n := len(t.conds); n > 0 && word != "endif" {
		t.judgePasses(&t.conds[n-1], k, word, before, len(t.edits) != edits)
		t.conds[n-1].hip = t.hipBranchAt(k, word, chain)
		if word == "if" || word == "ifdef" || word == "ifndef" {
			t.deviceTwins(k, t.conds[n-1])
		}
	}
	t.updateDeadOnHIP()
}

// hipBranchAt tells what the #if, #ifdef, #ifndef, #elif or #else at k
// makes of the branch it starts, given chain, what the branches before it
// said (see hipBranch).
func (t *translator) hipBranchAt(k int, word string, chain hipBranch) hipBranch {
	switch word {
	case "ifdef", "ifndef":
		if t.tok(k+2).Kind == lex.Ident && t.endsDirective(k+3) && t.hipMacro(t.text(k+2)) {
			yes := word == "ifdef"
			return hipBranch{native: yes, cudaAlt: !yes, elseNative: !yes, elseCudaAlt: yes, macro: string(t.text(k + 2))}
		}
	case "if", "elif":
		switch {
		case chain.elseNative:
			return hipBranch{native: true, elseNative: true}
		case chain.elseCudaAlt:
			return hipBranch{cudaAlt: true, elseCudaAlt: true, macro: chain.macro}
		}
		return t.hipCondition(k + 2)
	case "else":
		return hipBranch{native: chain.elseNative, cudaAlt: chain.elseCudaAlt, macro: chain.macro}
	}
	return hipBranch{}
}

// hipCondition reads the condition of an #if or #elif from j. Its branch
// is native when every alternative (operand of a top-level ||) has a
// conjunct (operand of a top-level &&) that tests a HIP macro (defined M,
// defined(M), or M alone as a truth value); when each alternative is such
// a test and nothing else, the branches after it are taken only where all
// fail. A whole negated test (!defined(M), !M) says the reverse.
func (t *translator) hipCondition(j int) hipBranch {
	if m, end, not, ok := t.definedTest(j); ok && not && t.endsDirective(end) {
		if t.hipMacro(t.text(m)) {
			return hipBranch{cudaAlt: true, elseNative: true, macro: string(t.text(m))}
		}
		return hipBranch{}
	}
	if t.is(j, "!") && t.tok(j+1).Kind == lex.Ident && t.endsDirective(j+2) {
		if t.hipMacro(t.text(j + 1)) {
			return hipBranch{cudaAlt: true, elseNative: true, macro: string(t.text(j + 1))}
		}
		return hipBranch{}
	}
	// alt: the current alternative tests a HIP macro; only: and is that
	// test alone; pure: every alternative so far was one alone.
	alt, only, pure, any := false, true, true, false
	first := "" // the first HIP macro tested
	endAlt := func() bool {
		pure = pure && alt && only
		return alt
	}
	for depth := 0; !t.endsDirective(j); j++ {
		any = true
		switch {
		case t.isByte(j, '('):
			depth++
			only = false
		case t.isByte(j, ')'):
			depth--
		case depth > 0:
		case t.is(j, "||"):
			if !endAlt() {
				return hipBranch{}
			}
			alt, only = false, true
		case t.is(j, "defined"):
			m, end, _, ok := t.definedTest(j)
			if !ok {
				return hipBranch{}
			}
			if t.hipMacro(t.text(m)) && !t.is(j-1, "!") && !alt {
				alt = true
				if first == "" {
					first = string(t.text(m))
				}
			} else {
				only = false
			}
			j = end - 1
		case t.tok(j).Kind == lex.Ident && t.hipMacro(t.text(j)) && !t.is(j-1, "!") && !alt &&
			(t.endsDirective(j+1) || t.is(j+1, "&&") || t.is(j+1, "||") || t.isByte(j+1, ')')):
			// M alone, as a truth value, not compared (HIP_VERSION < N
			// holds where HIP_VERSION is undefined).
			alt = true
			if first == "" {
				first = string(t.text(j))
			}
		default:
			only = false
		}
	}
	if !any || !endAlt() {
		return hipBranch{}
	}
	return hipBranch{native: true, elseCudaAlt: pure, macro: first}
}

// hipMacro is the free hipMacro, and also true for the macros that every
// HIP compile defines (Options.HIPDefines), whatever their names.
func (t *translator) hipMacro(b []byte) bool {
	return hipMacro(b) || t.hipDefined(b)
}

// hipDefined reports whether Options.HIPDefines defines the macro b.
func (t *translator) hipDefined(b []byte) bool {
	_, ok := t.hipDefinition(b)
	return ok
}

// hipDefinition returns the value Options.HIPDefines gives the macro b
// ("1" for a name alone, as -D gives it), and whether it defines b.
func (t *translator) hipDefinition(b []byte) (value string, ok bool) {
	for _, d := range t.opts.HIPDefines {
		name, v, hasValue := strings.Cut(d, "=")
		if name == string(b) {
			if !hasValue {
				v = "1"
			}
			return v, true
		}
	}
	return "", false
}

// HIPSwitch reports whether a macro's name is that of a project's own
// switch of HIP builds, which the project's build defines: one whose last
// part names HIP or ROCm (USE_ROCM, GGML_USE_HIP, USE_AMD_ROCM,
// PADDLE_WITH_HIP), not a feature of HIP builds (GGML_HIP_GRAPHS) nor a
// macro of HIP or its compiler (__HIP_PLATFORM_AMD__, HIP_VERSION).
func HIPSwitch(name string) bool {
	if strings.HasPrefix(name, "__") || strings.HasPrefix(name, "HIP_") {
		return false
	}
	return hipNamePart(name[strings.LastIndexByte(name, '_')+1:])
}

// hipNamePart reports whether a part of a macro's name between
// underscores names HIP or ROCm builds.
func hipNamePart(part string) bool {
	switch part {
	case "HIP", "HIPCC", "HIPBLAS", "ROCM", "HCC":
		return true
	}
	return false
}

// hipMacro reports whether a macro that a project tests names HIP or ROCm
// builds: HIP's platform macros, __HIP_DEVICE_COMPILE__, and the project's
// own switches with HIP, HIPCC, HIPBLAS, ROCM or HCC as a part of their
// name between underscores (USE_ROCM, GGML_USE_HIP, __HIP_ROCclr__).
func hipMacro(b []byte) bool {
	if _, ok := hipPlatformMacro(b); ok {
		return true
	}
	for len(b) > 0 {
		i := bytes.IndexByte(b, '_')
		part := b
		if i >= 0 {
			part, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		if hipNamePart(string(part)) {
			return true
		}
	}
	return false
}

// inNative reports whether the walk is inside a branch that only HIP
// builds compile (see hipBranch).
func (t *translator) inNative() bool {
	for _, f := range t.conds {
		if f.hip.native {
			return true
		}
	}
	return false
}

// inCudaAlt reports whether the walk is inside a branch that only builds
// where a test of HIP fails compile (see hipBranch).
func (t *translator) inCudaAlt() bool {
	for _, f := range t.conds {
		if f.hip.cudaAlt {
			return true
		}
	}
	return false
}

// judgePasses records in f, the frame of the branch that the #if, #ifdef,
// #ifndef, #elif or #else at k starts, whether each of hipcc's passes
// compiles it, given what the branches before it took: a branch that
// neither pass compiles, and that the checks above did not judge, is dead
// (its condition keeps it from AMD GPUs). edited tells that they rewrote
// the condition (see olderArchBlock): its value is then not read here.
func (t *translator) judgePasses(f *condFrame, k int, word string, before passes, edited bool) {
	var cond passes
	switch {
	case word == "else":
		cond = passes{triTrue, triTrue}
	case edited:
	case word == "ifdef" || word == "ifndef":
		if t.endsDirective(k+3) && !t.definesArchItself() {
			cond = t.definedPasses(t.text(k + 2))
			if word == "ifndef" {
				cond = cond.not()
			}
		}
	default:
		cond = t.conditionPasses(k)
	}
	if word != "elif" && word != "else" {
		before = passes{triFalse, triFalse}
	}
	live := before.not().and(cond)
	f.taken = before.or(cond)
	f.noDevice = live.device == triFalse
	if !f.dead && live.device == triFalse && live.host == triFalse {
		f.dead, f.platform = true, true
	}
}

// deviceNever reports whether the current branch is never compiled in the
// device pass, by what the file itself says (see deadInFile).
func (t *translator) deviceNever() bool {
	for _, f := range t.conds {
		if f.noDevice || f.dead && !f.included {
			return true
		}
	}
	return false
}

// deadInHeaders reports whether the macro at m, which deadMacroTest found
// defined only in blocks hipcc never compiles, is so by what project
// headers define (Options.IncludedMacros), not by the file's own
// #defines.
func (t *translator) deadInHeaders(m int) bool {
	return !strings.HasPrefix(t.deadOnlyMacro(string(t.text(m))), "line ")
}

// deadInFile reports whether an enclosing branch is never compiled by
// what the file itself says: the translation's output may depend on it,
// unlike on what project headers define (see condFrame.included).
func (t *translator) deadInFile() bool {
	for _, f := range t.conds {
		if f.dead && !f.included {
			return true
		}
	}
	return false
}

// updateDeadOnHIP records whether any enclosing branch is never compiled.
func (t *translator) updateDeadOnHIP() {
	t.deadOnHIP = false
	for _, f := range t.conds {
		if f.dead {
			t.deadOnHIP = true
		}
	}
}

// archCondition classifies "#if" or "#elif" at k: a condition that
// compares __CUDA_ARCH__ with a version (optionally after
// defined(__CUDA_ARCH__) &&) is false under hipcc.
func (t *translator) archCondition(k int) condFrame {
	j := k + 2
	if t.is(j, "0") && t.endsDirective(j+1) {
		return condFrame{dead: true, zero: true} // no compiler compiles it
	}
	if onAMD, ok := t.platformCondition(j); ok {
		return platformFrame(onAMD)
	}
	if t.madeTrueForHIP(j) {
		return condFrame{elseDead: true} // as versionCondition's rewrite of it said
	}
	if vt, ok := t.versionTestAt(j + 1); ok && t.isByte(j, '(') && t.isByte(vt.num+1, ')') && t.endsDirective(vt.num+2) {
		return t.versionCondition(k, j+1) // "#if (CUDART_VERSION >= N)", as without the parentheses
	}
	if (t.is(j, "__CUDA_ARCH__") || t.is(j, "__HIP_DEVICE_COMPILE__")) && t.endsDirective(j+1) {
		return condFrame{device: true} // #if __CUDA_ARCH__
	}
	if t.is(j, "!") && t.is(j+1, "defined") && t.is(j+2, "(") && (t.is(j+3, "__CUDA_ARCH__") || t.is(j+3, "__HIP_DEVICE_COMPILE__")) && t.is(j+4, ")") && t.endsDirective(j+5) {
		return condFrame{host: true} // #if !defined(__CUDA_ARCH__)
	}
	if t.is(j, "defined") {
		j++
		paren := t.is(j, "(")
		if paren {
			j++
		}
		if !t.is(j, "__CUDA_ARCH__") && !t.is(j, "__HIP_DEVICE_COMPILE__") {
			return t.conjunction(k)
		}
		j++
		if paren {
			if !t.is(j, ")") {
				return condFrame{}
			}
			j++
		}
		if t.endsDirective(j) {
			// #if defined(__CUDA_ARCH__) alone: the device pass
			// (cudaArchUse rewrites the macro).
			return condFrame{device: true}
		}
		if !t.is(j, "&&") {
			return condFrame{}
		}
		j++
	}
	if t.isVersionMacro(j) {
		return t.versionCondition(k, j)
	}
	if !t.is(j, "__CUDA_ARCH__") {
		return t.conjunction(k)
	}
	op := string(t.text(j + 1))
	if op == "<" || op == "<=" {
		v := t.tok(j + 2)
		if !v.Directive || v.Kind != lex.Number && v.Kind != lex.Ident {
			return condFrame{}
		}
		if t.olderArchBlock(k, j) {
			if t.hasAlternatives(k) {
				// "__CUDA_ARCH__ < 700 || defined(USE_ROCM)": the
				// other alternatives decide.
				return condFrame{}
			}
			// The condition now excludes HIP, as a translation of the
			// output will read it.
			return platformFrame(false)
		}
		if j == k+2 && t.endsDirective(j+3) {
			// "#if __CUDA_ARCH__ < 700" alone holds in both of hipcc's
			// passes: its #else, for newer NVIDIA GPUs, is never
			// compiled (cuda-samples' PTX acquire loads).
			return platformFrame(true)
		}
		return condFrame{}
	}
	if !falseAtZero(op) {
		return condFrame{}
	}
	if v := t.tok(j + 2); !v.Directive || v.Kind != lex.Number && v.Kind != lex.Ident {
		return condFrame{}
	}
	if t.is(j+3, "||") {
		return t.conjunction(k) // "__CUDA_ARCH__ == 800 || ...": see archAlternative
	}
	if !t.endsDirective(j+3) && !t.is(j+3, "&&") {
		return condFrame{}
	}
	t.reportArchTest(j)
	return condFrame{dead: true, archTest: true}
}

// reportArchTest reports the comparison of __CUDA_ARCH__ at j with a
// version, false for hipcc.
func (t *translator) reportArchTest(j int) {
	t.report(j, diag.Warning, checkCUDAArch, "hipcc does not define __CUDA_ARCH__, so "+t.quotedTest(j)+" is false for AMD GPUs and this block is never compiled there; if its code is portable, test __HIP_DEVICE_COMPILE__ (or __HIP_PLATFORM_AMD__) as well")
}

// conjunction classifies an #if or #elif at k whose condition is a chain
// of terms joined by && (no || outside parentheses): false under hipcc
// when one of its terms is, a comparison of __CUDA_ARCH__ with a version
// ("!defined(GGML_USE_HIP) && __CUDA_ARCH__ >= 800"), a defined test of a
// macro the file defines only in blocks hipcc never compiles, or a
// parenthesised test of CUDA releases that HIP, which defines no
// CUDART_VERSION, fails ("(CUDART_VERSION >= 12030 || (!defined(_MSC_VER)
// && CUDART_VERSION >= 11080))", see falseVersionTest).
func (t *translator) conjunction(k int) condFrame {
	depth := 0
	term := true // the next token starts a term
	arch, derived, version, older := -1, -1, -1, -1
	bare := false     // the version test is a term itself, not in parentheses
	hipExcluded := "" // a term !defined(X) where X names HIP or ROCm
	// platformFalse: a term that is false for AMD GPUs, !defined(M) of a
	// macro hipcc defines there or defined(M) of one it does not (see
	// hipPlatformMacro).
	platformFalse := false
	var unknown []string
	for j := k + 2; !t.endsDirective(j); j++ {
		if term && depth == 0 {
			if m, end, not, ok := t.definedTest(j); ok {
				if not && namesHIP(string(t.text(m))) {
					hipExcluded = string(t.text(m))
				}
				if onAMD, ok := t.platformMacro(t.text(m)); ok && onAMD == not && t.endsTerm(end) {
					platformFalse = true
				}
			}
		}
		switch {
		case term && depth == 0 && t.isByte(j, '('):
			end := t.groupEnd(j)
			if end < 0 {
				return condFrame{}
			}
			if version < 0 && t.endsTerm(end+1) {
				version = t.falseVersionTest(j+1, end)
			}
			if older < 0 && t.endsTerm(end+1) && t.olderTest(j+1, func(e int) bool { return e == end }) {
				older = j + 1 // "(__CUDACC_VER_MAJOR__ < 12)"
			}
			j = end
		case t.isByte(j, '('):
			depth++
		case t.isByte(j, ')'):
			depth--
		case depth == 0 && t.is(j, "||"):
			t.archAlternative(k)
			return condFrame{}
		case depth == 0 && t.is(j, "&&"):
			term = true
			continue
		case term && depth == 0 && version < 0 && t.isVersionMacro(j) && j > k+2:
			// "... && CUDART_VERSION >= 11070": a lone comparison is
			// versionCondition's, one among other terms is false so.
			if vt, ok := t.versionTestAt(j); ok && falseAtZero(string(t.text(vt.op))) && t.endsTerm(vt.num+1) {
				version, bare = j, true
			} else if older < 0 && t.olderTest(j, t.endsTerm) {
				older = j
			}
		case term && depth == 0 && arch < 0 && t.is(j, "__CUDA_ARCH__"):
			if falseAtZero(string(t.text(j+1))) && t.tok(j+2).Directive &&
				(t.tok(j+2).Kind == lex.Number || t.tok(j+2).Kind == lex.Ident) && t.endsTerm(j+3) {
				arch = j
			}
		case term && depth == 0 && derived < 0 && t.is(j, "defined"):
			m := j + 1
			if t.isByte(m, '(') && t.isByte(m+2, ')') && t.endsTerm(m+3) || t.tok(m).Kind == lex.Ident && t.endsTerm(m+1) {
				if t.isByte(m, '(') {
					m++
				}
				if name := string(t.text(m)); t.tok(m).Directive && t.tok(m).Kind == lex.Ident {
					if t.deadOnlyMacro(name) != "" {
						derived = m
					} else if t.unknownMacro(name) {
						unknown = append(unknown, name)
					}
				}
			}
		}
		term = false
	}
	switch {
	case arch >= 0 && hipExcluded != "":
		// The condition excludes HIP itself: nothing to warn about.
		t.report(arch, diag.Note, checkCUDAArch, "this block is for NVIDIA GPUs only (!defined("+hipExcluded+"), and hipcc does not define __CUDA_ARCH__): it is never compiled for AMD GPUs")
		return condFrame{dead: true, archTest: true}
	case arch >= 0:
		t.reportArchTest(arch)
		return condFrame{dead: true, archTest: true}
	case platformFalse:
		return platformFrame(false)
	case derived >= 0 && t.deadMacroTest(derived):
		return condFrame{dead: true, included: t.deadInHeaders(derived)}
	case version >= 0:
		test := t.quotedVersionTest(version)
		if hipExcluded != "" {
			t.report(version, diag.Note, checkCUDAArch, "this block is for NVIDIA GPUs only (!defined("+hipExcluded+"), and HIP does not define "+string(t.text(version))+", so "+test+" is false): it is never compiled for AMD GPUs")
		} else {
			what := test + ", and with it the parenthesised test of CUDA releases,"
			if bare {
				what = test
			}
			t.report(version, diag.Warning, checkCUDAArch, "HIP does not define "+string(t.text(version))+", so "+what+" is false and this block is never compiled for AMD GPUs; test HIP_VERSION (or __HIP_PLATFORM_AMD__) as well if its code is portable")
		}
		return condFrame{dead: true}
	case older >= 0 && hipExcluded == "" && !t.excludesHIP(k):
		if f := t.olderRelease(k, older); f.dead {
			return f
		}
	}
	return condFrame{unknown: strings.Join(unknown, "\x00")}
}

// archAlternative reports, in an #if or #elif at k whose condition has
// alternatives (||), a comparison of __CUDA_ARCH__ with a version that is
// one of an alternative's terms at the top level: false under hipcc, so
// the block is compiled for AMD GPUs only when another alternative holds
// ("defined(GGML_USE_HIP) || __CUDA_ARCH__ >= 600" leaves out every AMD
// build that does not define GGML_USE_HIP). Which one holds is not known
// here, so the block is not taken for dead.
func (t *translator) archAlternative(k int) {
	depth := 0
	term := true
	for j := k + 2; !t.endsDirective(j); j++ {
		if term && depth == 0 {
			c, end := j, j+3 // the comparison, and the token after it
			if t.isByte(j, '(') && t.isByte(j+4, ')') {
				c, end = j+1, j+5 // "(__CUDA_ARCH__ >= 800)"
			}
			if t.is(c, "__CUDA_ARCH__") && falseAtZero(string(t.text(c+1))) && t.tok(c+2).Directive &&
				(t.tok(c+2).Kind == lex.Number || t.tok(c+2).Kind == lex.Ident) && (t.endsTerm(end) || t.is(end, "||")) {
				t.report(c, diag.Warning, checkCUDAArch, "hipcc does not define __CUDA_ARCH__, so "+t.quotedTest(c)+" is false for AMD GPUs: this block is compiled there only when another alternative of the condition holds; if its code is portable, test __HIP_DEVICE_COMPILE__ (or __HIP_PLATFORM_AMD__) as well")
				return
			}
		}
		switch {
		case t.isByte(j, '('):
			depth++
		case t.isByte(j, ')'):
			depth--
		case depth == 0 && (t.is(j, "||") || t.is(j, "&&")):
			term = true
			continue
		}
		term = false
	}
}

// isVersionMacro reports whether the token j names a CUDA release macro,
// CUDART_VERSION, CUDA_VERSION or nvcc's __CUDACC_VER_MAJOR__, which
// hipcc does not define.
func (t *translator) isVersionMacro(j int) bool {
	return t.is(j, "CUDART_VERSION") || t.is(j, "CUDA_VERSION") || t.is(j, "__CUDACC_VER_MAJOR__")
}

// versionTest is a comparison in an #if of CUDA's release with a number,
// by the indexes of its tokens: the first, the operator and the number.
// The release is a macro ("CUDART_VERSION >= 11000") or a sum of products
// of nvcc's release macros and numbers in which every product names one
// ("__CUDACC_VER_MAJOR__ * 10000 + __CUDACC_VER_MINOR__ * 100 < 120200",
// as FlashInfer and TensorRT-LLM write it), which is 0 under hipcc, as the
// lone macro is.
type versionTest struct{ start, op, num int }

// versionTestAt returns the comparison of CUDA's release that starts at
// the token j, if there is one (see versionTest).
func (t *translator) versionTestAt(j int) (versionTest, bool) {
	if !t.isVersionMacro(j) || !t.tok(j).Directive {
		return versionTest{}, false
	}
	named := true // the current product names a release macro
	i := j + 1
	for ; t.tok(i+1).Directive && (t.is(i, "*") || t.is(i, "+")); i += 2 {
		if t.is(i, "+") {
			if !named {
				return versionTest{}, false
			}
			named = false
		}
		switch o := i + 1; {
		case t.isVersionMacro(o) || t.is(o, "__CUDACC_VER_MINOR__") || t.is(o, "__CUDACC_VER_BUILD__"):
			named = true
		case t.tok(o).Kind != lex.Number:
			return versionTest{}, false
		}
	}
	switch string(t.text(i)) {
	case "<", "<=", ">", ">=", "==":
	default:
		return versionTest{}, false
	}
	if !named || !t.tok(i+1).Directive || t.tok(i+1).Kind != lex.Number {
		return versionTest{}, false
	}
	return versionTest{start: j, op: i, num: i + 1}, true
}

// quotedVersionTest quotes, for a message, the comparison of CUDA's
// release that starts at j (see versionTest).
func (t *translator) quotedVersionTest(j int) string {
	vt, ok := t.versionTestAt(j)
	if !ok {
		return t.quotedTest(j)
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := vt.start; i <= vt.num; i++ {
		if i > vt.start {
			b.WriteByte(' ')
		}
		b.Write(t.text(i))
	}
	b.WriteByte('"')
	return b.String()
}

// quotedTest quotes, for a message, the comparison whose first token is j:
// "__CUDA_ARCH__ >= 700".
func (t *translator) quotedTest(j int) string {
	return "\"" + string(t.text(j)) + " " + string(t.text(j+1)) + " " + string(t.text(j+2)) + "\""
}

// endsTerm reports whether the token j ends a term of a chain of && in an
// #if: the end of the directive or the next &&.
func (t *translator) endsTerm(j int) bool {
	return t.endsDirective(j) || t.is(j, "&&")
}

// falseAtZero reports whether "X op N" is false when X is 0 and N is a
// positive version (the comparison of a macro hipcc does not define).
func falseAtZero(op string) bool {
	return op == ">=" || op == ">" || op == "=="
}

// groupEnd returns the ')' closing the '(' at open within its directive,
// or -1.
func (t *translator) groupEnd(open int) int {
	depth := 0
	for j := open; !t.endsDirective(j); j++ {
		switch {
		case t.isByte(j, '('):
			depth++
		case t.isByte(j, ')'):
			if depth--; depth == 0 {
				return j
			}
		}
	}
	return -1
}

// falseVersionTest returns the first comparison of CUDART_VERSION or
// CUDA_VERSION (>=, > or == a number) that makes the #if expression in
// the tokens [from, to) false under hipcc, which defines neither macro (0
// in #if), or -1: the expression must be alternatives joined by || each of
// which is a chain joined by && holding such a comparison, or a
// parenthesised expression false so, as one of its terms. (hipgen makes
// only a lone "CUDART_VERSION >= N" true for HIP, see versionCondition.)
func (t *translator) falseVersionTest(from, to int) int {
	first := -1
	falseTerm := false // the current alternative has a false term
	term := true       // the next token starts a term
	depth := 0
	bounded := func(e int) bool { return e >= to || t.is(e, "&&") || t.is(e, "||") }
	for j := from; j < to; j++ {
		switch {
		case term && depth == 0 && t.isByte(j, '('):
			end := t.groupEnd(j)
			if end < 0 || end >= to {
				return -1
			}
			if bounded(end + 1) {
				if p := t.falseVersionTest(j+1, end); p >= 0 {
					falseTerm = true
					if first < 0 {
						first = p
					}
				}
			}
			j = end
		case t.isByte(j, '('):
			depth++
		case t.isByte(j, ')'):
			depth--
		case depth == 0 && t.is(j, "||"):
			if !falseTerm {
				return -1
			}
			falseTerm, term = false, true
			continue
		case depth == 0 && t.is(j, "&&"):
			term = true
			continue
		case term && depth == 0 && t.isVersionMacro(j):
			if vt, ok := t.versionTestAt(j); ok && falseAtZero(string(t.text(vt.op))) && bounded(vt.num+1) {
				falseTerm = true
				if first < 0 {
					first = j
				}
			}
		}
		term = false
	}
	if !falseTerm {
		return -1
	}
	return first
}

// deadMacroTest reports whether the macro at m, tested by #ifdef or
// defined, is one the file defines only in blocks hipcc never compiles
// (see deadOnlyMacro), and says so once for the block.
func (t *translator) deadMacroTest(m int) bool {
	name := string(t.text(m))
	where := t.deadOnlyMacro(name)
	if where == "" {
		return false
	}
	t.report(m, diag.Note, checkCUDAArch, name+" is defined only in a block hipcc never compiles ("+where+
		"), so it is not defined for AMD GPUs and this block is never compiled there")
	return true
}

// olderArchBlock handles "#if __CUDA_ARCH__ < N" (the #if at k, the macro
// at j): true under hipcc, so the block, meant for older NVIDIA GPUs, is
// compiled for AMD GPUs. When it defines a function that HIP already
// provides for the target ROCm (a double atomicAdd for pre-Pascal GPUs),
// it would be a redefinition: the condition is made false for HIP (it
// reports true then). When it defines only what HIP lacks, it is a useful
// fallback and stays.
func (t *translator) olderArchBlock(k, j int) (excluded bool) {
	test := t.quotedTest(j)
	if name := t.redefinedInBlock(k); name != "" {
		t.insert(int(t.tok(j).Start), "!defined(__HIP__) && !defined(__HIP_CPU_RT__) && ")
		what := "the condition now excludes HIP"
		if t.hasAlternatives(k) {
			what = "the comparison now excludes HIP, and the block is compiled for AMD GPUs only where another alternative of the condition holds"
		}
		t.report(j, diag.Warning, checkCUDAArch, "hipcc does not define __CUDA_ARCH__, so "+test+" would be true for AMD GPUs, and this block would redefine "+name+", which HIP provides: "+what)
		return true
	}
	t.report(j, diag.Warning, checkCUDAArch, "hipcc does not define __CUDA_ARCH__, so "+test+" is true for AMD GPUs: this block, meant for older NVIDIA GPUs, is compiled there")
	return false
}

// hasAlternatives reports whether the condition of the #if or #elif at k
// has || outside parentheses.
func (t *translator) hasAlternatives(k int) bool {
	depth := 0
	for j := k + 2; !t.endsDirective(j); j++ {
		switch {
		case t.isByte(j, '('):
			depth++
		case t.isByte(j, ')'):
			depth--
		case depth == 0 && t.is(j, "||"):
			return true
		}
	}
	return false
}

// directiveStart reports whether the i-th significant token is the "#"
// starting a preprocessor line.
func (t *translator) directiveStart(i int) bool {
	return t.is(i, "#") && t.tok(i).Directive && t.isLineStart(i)
}

// condBlockEnd returns the position of the "#" of the #else, #elif or
// #endif that ends the conditional block whose text starts at from
// (nested #if blocks included), or len(sig).
func (t *translator) condBlockEnd(from int) int {
	depth := 0
	for i := from; i < len(t.toks); i++ {
		if !t.directiveStart(i) {
			continue
		}
		switch string(t.text(i + 1)) {
		case "if", "ifdef", "ifndef":
			depth++
		case "endif":
			if depth == 0 {
				return i
			}
			depth--
		case "else", "elif":
			if depth == 0 {
				return i
			}
		}
	}
	return len(t.toks)
}

// redefinedInBlock returns the name of a function defined between the #if
// at k and its #else, #elif or #endif that the table says HIP provides in
// the target ROCm, or "".
func (t *translator) redefinedInBlock(k int) string {
	for i, end := k+1, t.condBlockEnd(k+1); i < end; i++ {
		after, ok := t.functionName(i)
		if !ok || !t.is(after, "{") {
			continue
		}
		if e, ok := t.lookupIdent(t.text(i)); ok && e.Available(t.ver) {
			return e.CUDA
		}
	}
	return ""
}

// versionCondition handles "#if CUDART_VERSION >= N" (or CUDA_VERSION,
// or <, <=, >, ==) whose # is at k and macro at j. HIP defines neither
// macro, so the preprocessor reads it as 0; taken literally, HIP would be an
// NVIDIA runtime older than CUDA 1.0, compiling every fallback for ancient
// releases (cuda-samples' "CUDA 2.2 is required" branches) and none of the
// code written for current ones. hipgen judges by content instead:
//   - "at least N" (>=, >): when the block uses only what the target ROCm
//     provides (no name the table lacks, no inline asm), HIP has what the
//     block needs and the condition is made true for HIP; otherwise it
//     stays false and the block is never compiled (findings inside become
//     notes).
//   - "older than N" (<, <=): the fallback of an "at least N" block
//     elsewhere in the file; when that block is compiled for HIP, this one
//     is made false for HIP, so the two never meet. Without such a block,
//     one that uses what the target ROCm lacks (a shim for old CUDA
//     releases, naming what they called otherwise) is made false for HIP
//     too: HIP stands for a current runtime, and the block could not
//     compile there. One that ports stays, with a warning.
//   - "== N" stays false.
func (t *translator) versionCondition(k, j int) condFrame {
	vt, ok := t.versionTestAt(j)
	if !ok {
		return condFrame{}
	}
	macro, op := string(t.text(j)), string(t.text(vt.op))
	if after := vt.num + 1; !t.endsDirective(after) && !(t.isByte(j-1, '(') && t.isByte(after, ')')) {
		return condFrame{}
	}
	test := t.quotedVersionTest(j)
	switch op {
	case ">=", ">":
		if why := t.blockUnportable(k); why == "" {
			t.insert(int(t.tok(j).Start), "("+hipDefined+" || ")
			t.insert(int(t.tok(vt.num).End), ")")
			t.report(j, diag.Note, checkCUDAArch, "HIP does not define "+macro+", but the block under "+test+" uses only what ROCm "+t.ver.String()+" provides: the condition now holds for HIP")
			return condFrame{elseDead: true} // hipcc takes this branch, never the ones after it
		}
	case "<", "<=":
		return t.olderRelease(k, j)
	case "==":
	default:
		return condFrame{}
	}
	t.report(j, diag.Warning, checkCUDAArch, "HIP does not define "+macro+", so "+test+" is false and this block is never compiled for AMD GPUs; test HIP_VERSION (or __HIP_PLATFORM_AMD__) as well if its code is portable")
	return condFrame{dead: true}
}

// olderRelease handles, in the #if or #elif at k, the test at j of a CUDA
// release macro against a version ("CUDART_VERSION < 11000"), true under
// hipcc, which defines no such macro: the block is for older CUDA
// releases. When an "at least" block of the same version elsewhere is
// compiled for HIP, or this one uses what the target ROCm lacks, the test
// is made false for HIP (the condition's other terms, if any, are joined
// by &&).
func (t *translator) olderRelease(k, j int) condFrame {
	vt, _ := t.versionTestAt(j)
	macro, num, test := string(t.text(j)), string(t.text(vt.num)), t.quotedVersionTest(j)
	if line := t.portableCounterpart(k, vt); line > 0 {
		t.insert(int(t.tok(j).Start), "!("+hipDefined+") && ")
		t.report(j, diag.Note, checkCUDAArch, "HIP does not define "+macro+"; "+test+" guards the fallback for CUDA releases older than the block at line "+strconv.Itoa(line)+", which HIP compiles: the condition now excludes HIP")
		return condFrame{dead: true}
	}
	if why := t.blockUnportable(k); why != "" {
		t.insert(int(t.tok(j).Start), "!("+hipDefined+") && ")
		if name, ok := strings.CutPrefix(why, definesPrefix); ok {
			t.report(j, diag.Warning, checkCUDAArch, "HIP does not define "+macro+", so "+test+" would be true for AMD GPUs, but this block, meant for CUDA releases older than "+num+", defines "+name+", which HIP's headers define already: the condition now excludes HIP")
			return condFrame{dead: true}
		}
		t.report(j, diag.Warning, checkCUDAArch, "HIP does not define "+macro+", so "+test+" would be true for AMD GPUs, but this block, meant for CUDA releases older than "+num+", uses "+why+", which ROCm "+t.ver.String()+" lacks: the condition now excludes HIP")
		return condFrame{dead: true}
	}
	t.report(j, diag.Warning, checkCUDAArch, "HIP does not define "+macro+", so "+test+" is true for AMD GPUs: this block, meant for CUDA releases older than "+num+", is compiled there")
	return condFrame{}
}

// excludesHIP reports whether the condition of the #if or #elif at k has
// the term by which a translation excluded HIP ("!(" + hipDefined + ")").
func (t *translator) excludesHIP(k int) bool {
	end := k + 2
	for !t.endsDirective(end) {
		end++
	}
	return bytes.Contains(t.src[t.tok(k+2).Start:t.tok(end-1).End], []byte("!("+hipDefined+")"))
}

// olderTest reports whether the tokens from j are a test that a CUDA
// release macro is older than a version: "CUDART_VERSION < 11000" (or <=)
// followed by end, the token that must come after it.
func (t *translator) olderTest(j int, end func(int) bool) bool {
	vt, ok := t.versionTestAt(j)
	if !ok {
		return false
	}
	op := string(t.text(vt.op))
	return (op == "<" || op == "<=") && end(vt.num+1)
}

// madeTrueForHIP reports whether the condition from j is one a
// translation made true for HIP ("(" + hipDefined + " || CUDART_VERSION >=
// N)", see versionCondition): hipcc takes its branch, and none after it,
// as the first run said.
func (t *translator) madeTrueForHIP(j int) bool {
	if !t.isByte(j, '(') || !bytes.HasPrefix(t.src[t.tok(j).Start:], []byte("("+hipDefined+" || ")) {
		return false
	}
	vt, ok := t.versionTestAt(j + 11) // past "(defined(__HIP__) || defined(__HIP_CPU_RT__) ||"
	if !ok {
		return false
	}
	op := string(t.text(vt.op))
	return (op == ">=" || op == ">") && t.isByte(vt.num+1, ')') && t.endsDirective(vt.num+2)
}

// hipDefined is true under hipcc (both passes) and HIP-CPU.
const hipDefined = "defined(__HIP__) || defined(__HIP_CPU_RT__)"

// definesPrefix starts what blockUnportable returns for a block that
// defines a type HIP's headers define.
const definesPrefix = "defines "

// blockUnportable returns why the block from the #if at k to its #else,
// #elif or #endif cannot be compiled for the target ROCm (a CUDA name the
// table lacks there, inline asm), or "" when nothing stands in its way.
func (t *translator) blockUnportable(k int) string {
	end := t.condBlockEnd(k + 2)
	if h := t.removedInclude(k, end); h != "" {
		return h // an earlier translation removed it: the output translates the same
	}
	for i := k + 2; i < end; i++ {
		if t.directiveStart(i) {
			if t.is(i+1, "include") {
				if h := t.unportableHeader(i + 2); h != "" {
					return h
				}
			}
			continue
		}
		if t.tok(i).Kind != lex.Ident || t.isMacroNameOperand(i) { // a macro's name is not a use
			continue
		}
		b := t.text(i)
		if (t.is(i-1, "struct") || t.is(i-1, "union") || t.is(i-1, "class")) && t.isByte(i+1, '{') && (isVectorType(string(b)) || string(b) == "dim3") {
			// A definition of a vector type, for CUDA releases that lacked
			// it (Rodinia's cfd: "#if CUDART_VERSION < 3000 struct double3
			// {...}"): HIP's headers define it already.
			return definesPrefix + string(b)
		}
		if sp, ok := t.names.special[string(b)]; ok {
			switch sp.kind {
			case spAsm, spHopper:
				return string(b)
			case spFloats2BF162, spFloat2BF162, spMakeBF162:
				continue // rewritten as what HIP has
			}
		}
		if why := t.unportableCallForm(i); why != "" {
			return why
		}
		e, ok := t.lookupIdent(b)
		if !ok && bytes.HasPrefix(b, []byte("__nv_")) && !t.definesFunction(string(b)) && t.definesAt()[string(b)] == nil {
			return string(b) // NVIDIA's reserved prefix, and no rule knows it
		}
		if !ok || e.Available(t.ver) && e.Status != hipmap.Unsupported {
			continue
		}
		if _, ok := t.names.polyfills[string(b)]; ok || t.definesFunction(e.CUDA) {
			continue
		}
		return string(b)
	}
	return ""
}

// removedInclude returns "<p>" when a comment between the tokens k and
// end is the one an include of the CUDA header p left when a translation
// removed it (see unavailableHeader), or "".
func (t *translator) removedInclude(k, end int) string {
	from, to := t.tok(k).End, int32(len(t.src))
	if end < len(t.toks) {
		to = t.tok(end).Start
	}
	// The comments are in file order.
	first := sort.Search(len(t.comments), func(i int) bool { return t.comments[i].Start >= from })
	for _, c := range t.comments[first:] {
		if c.Start >= to {
			break
		}
		if text := t.src[c.Start:c.End]; bytes.HasPrefix(text, []byte(removedIncludeMark)) {
			if p, _, ok := strings.Cut(string(text[len(removedIncludeMark):]), ">"); ok {
				return "<" + p + ">"
			}
		}
	}
	return ""
}

// unportableHeader returns "<p>" when the header named by the token at pk,
// in an #include, is a CUDA header without a HIP equivalent in the target
// ROCm (the translation removes its include), or "".
func (t *translator) unportableHeader(pk int) string {
	p, quoted, ok := includePath(t.src, t.tok(pk))
	if !ok || t.isLocal(p) {
		return ""
	}
	if e, ok := t.tbl.Header(p, t.ver); ok {
		if e.Available(t.ver) {
			return ""
		}
	} else if quoted || !isCUDAHeader(p) {
		return ""
	}
	return "<" + p + ">"
}

// portableCounterpart returns the line of an "#if RELEASE >= N" (or >)
// block, with the release and N of the comparison vt ("RELEASE < N"), whose
// content ports, or 0.
func (t *translator) portableCounterpart(k int, vt versionTest) int {
	for _, sc := range t.scopes { // the '#' of every #if and #elif is there
		i := int(sc)
		if i == k || i+4 >= len(t.toks) || t.toks[i].Kind != lex.Punct || !t.is(i+1, "if") && !t.is(i+1, "elif") {
			continue
		}
		ct, ok := t.versionTestAt(i + 2)
		if !ok || ct.op-ct.start != vt.op-vt.start || !t.is(ct.op, ">=") && !t.is(ct.op, ">") ||
			!bytes.Equal(t.text(ct.num), t.text(vt.num)) {
			continue
		}
		same := true
		for d := 0; d < vt.op-vt.start; d++ {
			same = same && bytes.Equal(t.text(ct.start+d), t.text(vt.start+d))
		}
		if !same || t.tok(ct.num+1).Directive && !t.is(ct.num+1, "#") {
			continue
		}
		if t.blockUnportable(i) == "" {
			line, _ := t.position(int(t.tok(i).Start))
			return line
		}
	}
	return 0
}

// archMacro is the name value uses of __CUDA_ARCH__ become, and
// archMacroValue its value in the device pass (see the policy above).
const (
	archMacro      = "HIPGEN_CUDA_ARCH"
	archMacroValue = "1"
)

// cudaArchUse handles the identifier __CUDA_ARCH__ at k, in code or in a
// directive, following the policy at the top of this file.
func (t *translator) cudaArchUse(k int) {
	if t.definesArchItself() {
		return // the file defines __CUDA_ARCH__ itself: its tests mean that definition
	}
	word := ""
	if t.tok(k).Directive {
		word = t.directiveWord(k)
	}
	switch word {
	case "undef":
		return
	case "ifdef", "ifndef":
		if t.is(k-1, word) {
			t.replace(k, "__HIP_DEVICE_COMPILE__")
			t.report(k, diag.Note, checkCUDAArch, "#"+word+" __CUDA_ARCH__ became __HIP_DEVICE_COMPILE__: hipcc does not define __CUDA_ARCH__; this is the HIP way to tell the device pass from the host pass")
		}
		return
	}
	if t.is(k-1, "defined") || t.is(k-1, "(") && t.is(k-2, "defined") {
		t.replace(k, "__HIP_DEVICE_COMPILE__")
		t.report(k, diag.Note, checkCUDAArch, "defined(__CUDA_ARCH__) became defined(__HIP_DEVICE_COMPILE__): hipcc does not define __CUDA_ARCH__; this is the HIP way to tell the device pass from the host pass")
		return
	}
	if word == "if" || word == "elif" {
		if t.isTruthTest(k) {
			t.replace(k, "__HIP_DEVICE_COMPILE__")
			t.report(k, diag.Note, checkCUDAArch, "the truth test of __CUDA_ARCH__ became __HIP_DEVICE_COMPILE__: under nvcc it is true in the device pass only, and so is __HIP_DEVICE_COMPILE__ under hipcc")
		}
		// A comparison: the preprocessor reads the undefined macro as 0.
		return
	}
	if word != "" && word != "define" {
		return // #error, #pragma, #line: text, not a value
	}
	t.replace(k, archMacro)
	t.notePolyfill("__CUDA_ARCH__", int(t.tok(k).Start))
	msg := "__CUDA_ARCH__ used as a value became " + archMacro + ", defined as " + archMacroValue + " in the device pass only (as nvcc defines __CUDA_ARCH__): 1 is below every NVIDIA compute capability, so tests of the value pick the portable code path, as the #if tests do, which read the undefined __CUDA_ARCH__ as 0"
	if word == "" && !t.inDevicePass() {
		t.report(k, diag.Warning, checkCUDAArch, msg+"; this use is not under #ifdef __CUDA_ARCH__, and hipcc's host pass also compiles device functions, where "+archMacro+" is undefined: guard it with #ifdef __HIP_DEVICE_COMPILE__")
		return
	}
	t.report(k, diag.Note, checkCUDAArch, msg)
}

// versionMacro is the name value uses of CUDART_VERSION and CUDA_VERSION
// become, and versionMacroValue its value.
const (
	versionMacro      = "HIPGEN_CUDART_VERSION"
	versionMacroValue = "12000"
)

// cudaVersionUse handles the identifier CUDART_VERSION or CUDA_VERSION at
// k. HIP defines neither. The #if tests are judged by content (see
// versionCondition); a value in code or in a macro body ("if
// (CUDART_VERSION == 6050)", a printf of the release) becomes
// HIPGEN_CUDART_VERSION, which the polyfill block defines as 12000, CUDA
// 12.0: HIP stands for a current runtime there too, so a test for an old
// release is false and one for "at least" a release up to 12.0 holds. A
// file that defines the macro itself keeps every use, and so does a block
// hipcc never compiles.
func (t *translator) cudaVersionUse(k int) {
	name := string(t.text(k))
	if t.deadInFile() || len(t.definesAt()[name]) > 0 {
		// Never compiled for AMD GPUs by what the file says (what
		// project headers define decides diagnostics, not output), or
		// the file's own macro.
		return
	}
	if t.tok(k).Directive {
		if t.directiveWord(k) != "define" || t.is(k-1, "define") {
			return // #if tests (versionCondition), #ifdef, #undef, #error: left
		}
	}
	if t.isByte(k-1, '.') || t.is(k-1, "->") || t.is(k-1, "::") || t.isByte(k+1, '(') {
		return // a member, a qualified name or a function of that name: not the macro
	}
	// A declaration of that name is taken for a use too: nvcc's headers
	// define both macros (CUDART_VERSION always), where such code does
	// not compile.
	t.replace(k, versionMacro)
	t.notePolyfill("CUDART_VERSION", int(t.tok(k).Start))
	t.report(k, diag.Warning, checkCUDAArch, "HIP defines no CUDA release: "+name+" used as a value became "+versionMacro+", defined as "+versionMacroValue+" (CUDA 12.0), as the #if tests take HIP for a current runtime; a test for an older release is false for AMD GPUs; check that this is what the code wants"+oncePerFile)
}

// directiveWord returns the keyword of the directive whose line holds the
// significant token k ("if", "define", ...).
func (t *translator) directiveWord(k int) string {
	j := k
	for j > 0 && t.tok(j).Directive && !(t.is(j, "#") && t.isLineStart(j)) {
		j--
	}
	if !t.is(j, "#") {
		return ""
	}
	return string(t.text(j + 1))
}

// isTruthTest reports whether __CUDA_ARCH__ at k, in #if or #elif, is an
// operand of !, && or || (or the whole condition) rather than compared or
// computed with.
func (t *translator) isTruthTest(k int) bool {
	prev := string(t.text(k - 1))
	if prev != "if" && prev != "elif" && prev != "!" && prev != "&&" && prev != "||" && prev != "(" {
		return false
	}
	return t.endsDirective(k+1) || t.is(k+1, "&&") || t.is(k+1, "||") || t.is(k+1, ")")
}

// inDevicePass reports whether the current branch is compiled in the
// device pass only (#ifdef __CUDA_ARCH__ and its spellings).
func (t *translator) inDevicePass() bool {
	for _, f := range t.conds {
		if f.device {
			return true
		}
	}
	return false
}

// definesArchItself reports whether the file has "#define __CUDA_ARCH__".
func (t *translator) definesArchItself() bool {
	return t.facts.archDefined.get(func() bool {
		// Look only where the name occurs: a few places in a file. The
		// search starts at the C, far rarer in code than the underscore.
		tail := []byte("CUDA_ARCH__")
		for off := 2; off < len(t.src); {
			i := bytes.Index(t.src[off:], tail)
			if i < 0 {
				break
			}
			off += i
			k := t.tokenAt(off - 2)
			off += len(tail)
			if k >= 2 && t.is(k, "__CUDA_ARCH__") && t.is(k-1, "define") && t.is(k-2, "#") && t.tok(k).Directive {
				return true
			}
		}
		return false
	})
}

// endsDirective reports whether significant token k is past the end of the
// directive line being read.
func (t *translator) endsDirective(k int) bool {
	return !t.tok(k).Directive || t.is(k, "#") && t.isLineStart(k)
}

// hipPlatformMacro reports, for a macro that tells HIP's platforms apart,
// whether hipcc defines it when compiling for AMD GPUs (onAMD), and ok
// for such a macro. Code that a project keeps from HIP (#ifndef
// __HIP_PLATFORM_AMD__ around inline PTX) or gives to NVIDIA's HIP
// platform only is never compiled for AMD GPUs.
func hipPlatformMacro(b []byte) (onAMD, ok bool) {
	switch string(b) {
	case "__HIP_PLATFORM_AMD__", "__HIP_PLATFORM_HCC__", "__HIPCC__", "__HIP__":
		return true, true
	case "__HIP_PLATFORM_NVIDIA__", "__HIP_PLATFORM_NVCC__":
		return false, true
	}
	return false, false
}

// platformMacro is hipPlatformMacro, and also says "defined for AMD GPUs"
// of the macros that every HIP compile defines (Options.HIPDefines).
func (t *translator) platformMacro(b []byte) (onAMD, ok bool) {
	if onAMD, ok = hipPlatformMacro(b); ok {
		return onAMD, ok
	}
	if t.hipDefined(b) {
		return true, true
	}
	return false, false
}

// platformCondition reports whether the condition of an #if or #elif
// from j is a whole test of a platform macro (defined(M), defined M,
// !defined(M), !defined M) and whether it holds for AMD GPUs.
func (t *translator) platformCondition(j int) (holds, ok bool) {
	m, end, not, ok := t.definedTest(j)
	if !ok || !t.endsDirective(end) {
		return false, false
	}
	onAMD, ok := t.platformMacro(t.text(m))
	return onAMD != not, ok
}

// definedTest reads a test "defined M" or "defined(M)", after an optional
// "!", from the token j: it returns the position of M, the position after
// the test, whether it is negated, and ok when the tokens are one.
func (t *translator) definedTest(j int) (m, end int, not, ok bool) {
	if not = t.is(j, "!"); not {
		j++
	}
	if !t.is(j, "defined") {
		return 0, 0, false, false
	}
	j++
	paren := t.isByte(j, '(')
	if paren {
		j++
	}
	if t.tok(j).Kind != lex.Ident {
		return 0, 0, false, false
	}
	m, end = j, j+1
	if paren {
		if !t.isByte(end, ')') {
			return 0, 0, false, false
		}
		end++
	}
	return m, end, not, true
}

// platformFrame is the frame of a platform test that holds for AMD GPUs
// or not.
func platformFrame(holds bool) condFrame {
	if holds {
		return condFrame{elseDead: true}
	}
	return condFrame{dead: true, platform: true}
}

// deadByZeroOnly reports whether every enclosing branch that hipcc never
// compiles is an "#if 0" block.
func (t *translator) deadByZeroOnly() bool {
	for _, f := range t.conds {
		if f.dead && !f.zero {
			return false
		}
	}
	return true
}

// deadByPlatform reports whether every enclosing branch that hipcc never
// compiles is one that a platform test keeps from AMD GPUs (or an "#if
// 0" block).
func (t *translator) deadByPlatform() bool {
	for _, f := range t.conds {
		if f.dead && !f.zero && !f.platform {
			return false
		}
	}
	return true
}
