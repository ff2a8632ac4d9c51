package sources

import (
	"strconv"
	"strings"

	"github.com/hipgen/hipgen/diag"
	"github.com/hipgen/hipgen/sources/lex"
)

// Relocatable device code. A kernel that calls a __device__ function
// defined in another translation unit (HeCBench's fresnel declares
// "__host__ __device__ double Fresnel_Sine_Integral(double);" and defines
// it in fresnel.cu) needs its units compiled as relocatable device code
// and linked by the device linker: nvcc -rdc=true (or -dc), CMake's
// CUDA_SEPARABLE_COMPILATION; hipcc -fgpu-rdc when compiling and when
// linking. Without it nvcc fails at link time, and hipcc already at
// compile time, since it links each unit's device code on its own: "lld:
// error: undefined hidden symbol". The translation itself is right, so
// this is a warning about the build.

const checkRDC = "relocatable-device-code"

// needsRDCCheck reports whether the file is a .cu unit: a header's
// prototype is most often defined by another header that the same units
// include (HeCBench's qtclustering).
func (t *translator) needsRDCCheck() bool { return strings.HasSuffix(t.name, ".cu") }

// relocatableDeviceCode reports each __device__ function (or extern
// __device__ variable) that a .cu file declares at namespace scope (the
// walk lists them in deviceDecls), does not define, and uses in device
// code, at its declaration.
func (t *translator) relocatableDeviceCode() {
	for _, n := range t.deviceDecls {
		name := t.text(n)
		if t.definedHere(name) {
			continue
		}
		if use := t.deviceUse(name, n); use >= 0 {
			t.report(n, diag.Warning, checkRDC, string(name)+" is declared __device__ here, used by device code on line "+
				strconv.Itoa(t.lineOf(int(t.tok(use).Start)))+" and not defined in this file: if another translation unit defines it, the build needs relocatable device code, "+
				"hipcc -fgpu-rdc when compiling and when linking (nvcc -rdc=true, CMake's CUDA_SEPARABLE_COMPILATION); "+
				"without it hipcc stops with \"lld: error: undefined hidden symbol\" (or protected, for a variable)")
		}
	}
}

// deviceDeclaration returns the position of the name that the declaration
// holding the __device__ at k declares without defining it, at namespace
// scope: a function's prototype, or an extern variable. It returns -1 for
// anything else (a definition, a template, a class member, a local).
func (t *translator) deviceDeclaration(k int) int {
	if !t.atNamespaceScope(k) {
		return -1
	}
	extern := false
	for j := t.declarationStart(k, 64); j < k; j++ {
		switch {
		case t.is(j, "template"), t.is(j, "typedef"), t.is(j, "friend"):
			return -1
		case t.is(j, "extern"):
			extern = true
		}
	}
	for j := k + 1; j < len(t.toks) && j < k+64; j++ {
		switch {
		case t.isByte(j, '{'), t.isByte(j, '='), t.isByte(j, ':'):
			return -1
		case t.isByte(j, ';'):
			// A variable: extern only, or it is the definition.
			if extern && t.tok(j-1).Kind == lex.Ident {
				return j - 1
			}
			return -1
		case t.isByte(j, '['):
			if extern && t.tok(j-1).Kind == lex.Ident {
				if c := t.matching(j); c >= 0 && t.isByte(c+1, ';') {
					return j - 1
				}
			}
			return -1
		case t.isByte(j, '('):
			c := t.matching(j)
			if c < 0 {
				return -1
			}
			if attributeLike(t.text(j - 1)) {
				j = c
				continue
			}
			if t.tok(j-1).Kind != lex.Ident {
				return -1
			}
			if t.afterParams(c) == ';' {
				return j - 1
			}
			return -1
		}
	}
	return -1
}

// attributeLike reports whether a name before "(" in a declaration is an
// attribute or a type operator rather than the declared function.
func attributeLike(b []byte) bool {
	switch string(b) {
	case "__attribute__", "__launch_bounds__", "__align__", "alignas", "decltype", "__declspec", "__nv_pure__", "noexcept", "throw":
		return true
	}
	return false
}

// afterParams returns what follows the parameter list closing at c, past
// qualifiers, exception specifications, attributes and a trailing return
// type: ';' for a declaration, '{' for a definition, 0 for anything else.
func (t *translator) afterParams(c int) byte {
	for j := c + 1; j < len(t.toks) && j < c+64; j++ {
		switch {
		case t.isByte(j, ';'):
			return ';'
		case t.isByte(j, '{'):
			return '{'
		case t.isByte(j, '('):
			if !attributeLike(t.text(j - 1)) {
				return 0
			}
			if j = t.matching(j); j < 0 {
				return 0
			}
		case t.isByte(j, '=') || t.isByte(j, ','):
			return 0
		}
	}
	return 0
}

// atNamespaceScope reports whether every block around the k-th token is
// a namespace or an extern "C" block.
func (t *translator) atNamespaceScope(k int) bool {
	for o := t.openAround(k); o >= 0; o = t.openAround(o) {
		if !t.namespaceBlock(o) {
			return false
		}
	}
	return true
}

// namespaceBlock reports whether the "{" at o opens a namespace or an
// extern "C" block.
func (t *translator) namespaceBlock(o int) bool {
	switch {
	case t.is(o-1, "namespace"):
		return true
	case t.tok(o-1).Kind == lex.Ident:
		return t.is(o-2, "namespace") || t.is(o-2, "::") && t.is(o-4, "namespace")
	case t.tok(o-1).Kind == lex.String:
		return t.is(o-2, "extern")
	}
	return false
}

// definedHere reports whether the file defines the function or variable
// name at namespace scope: the name followed by a parameter list and a
// body, or a variable declared without extern.
func (t *translator) definedHere(name []byte) bool {
	found := false
	t.eachUse(name, func(j int) bool {
		switch {
		case t.isByte(j+1, '('):
			c := t.matching(j + 1)
			found = c >= 0 && t.afterParams(c) == '{' && t.atNamespaceScope(j)
		case t.isByte(j+1, ';') || t.isByte(j+1, '=') || t.isByte(j+1, '['):
			found = t.variableDefinition(j)
		}
		return !found
	})
	return found
}

// variableDefinition reports whether the name at j is declared at
// namespace scope by a declaration that says __device__, __constant__ or
// __managed__ and not extern.
func (t *translator) variableDefinition(j int) bool {
	if !t.atNamespaceScope(j) {
		return false
	}
	device := false
	for i := t.declarationStart(j, 64); i < j; i++ {
		switch {
		case t.is(i, "extern"):
			return false
		case t.is(i, "__device__"), t.is(i, "__constant__"), t.is(i, "__managed__"):
			device = true
		}
	}
	return device
}

// deviceUse returns the position of the first use of name in the body of
// a __global__ or __device__ function, other than at decl, or -1. Uses in
// __host__ __device__ functions do not count: hipcc compiles those for the
// GPU only when a kernel of the unit calls them (HeCBench's fresnel.cu,
// whose kernels are elsewhere, compiles without -fgpu-rdc).
func (t *translator) deviceUse(name []byte, decl int) int {
	use := -1
	t.eachUse(name, func(j int) bool {
		if device, host := t.functionSpace(j); j != decl && device && !host {
			use = j
		}
		return use < 0
	})
	return use
}
