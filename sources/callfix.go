package sources

import (
	"github.com/hipgen/hipgen/diag"
	"github.com/hipgen/hipgen/sources/hipmap"
)

// A few HIP functions are declared less generously than their CUDA
// counterparts: CUDA adds template overloads that accept any T** or any
// kernel, or default arguments HIP lacks. The call is patched so it
// compiles against both ROCm 5.2 and later releases.
type callFix struct {
	args    int    // the fix applies only to calls with this many arguments
	arg     int    // index of the argument to cast
	cast    string // the cast, e.g. "reinterpret_cast<void**>"
	why     string
	missing string // argument to append when the call has args arguments, instead of a cast
}

const kernelCast = "reinterpret_cast<const void*>"

var callFixes = map[string]callFix{
	"cudaFuncSetAttribute":       {args: 3, arg: 0, cast: kernelCast, why: "takes the kernel as const void*, not as a function pointer"},
	"cudaFuncSetCacheConfig":     {args: 2, arg: 0, cast: kernelCast, why: "takes the kernel as const void*, not as a function pointer"},
	"cudaFuncSetSharedMemConfig": {args: 2, arg: 0, cast: kernelCast, why: "takes the kernel as const void*, not as a function pointer"},
	"cudaFuncGetAttributes":      {args: 2, arg: 1, cast: kernelCast, why: "takes the kernel as const void*, not as a function pointer"},
	"cudaHostAlloc":              {args: 3, arg: 0, cast: "reinterpret_cast<void**>", why: "takes void**, with no template overload for T**"},
	"cudaMallocPitch":            {args: 4, arg: 0, cast: "reinterpret_cast<void**>", why: "takes void**, with no template overload for T**"},
	"cudaMallocAsync":            {args: 3, arg: 0, cast: "reinterpret_cast<void**>", why: "takes void**, with no template overload for T**"},
	"cudaMalloc3DArray":          {args: 3, missing: "0", why: "has no default for its flags argument"},
}

// fixCall patches the call of e's HIP function whose name is at k. A
// different argument count means template commas split an argument
// (k<a, b> is not bracketed), or the call already has what was missing:
// it is then left alone.
func (t *translator) fixCall(k int, fix callFix, e hipmap.Entry) {
	if !t.is(k+1, "(") {
		return
	}
	close := t.matching(k + 1)
	if close < 0 {
		return
	}
	args, ok := t.args(k+1, close)
	if !ok || len(args) != fix.args {
		return
	}
	if fix.missing != "" {
		t.insert(int(t.tok(close).Start), ", "+fix.missing)
		t.report(k, diag.Note, "call-fix", e.HIP+" "+fix.why+": added "+fix.missing)
		return
	}
	a := args[fix.arg]
	if first := string(t.text(a[0])); first == "reinterpret_cast" || first == "static_cast" || first == "(" && (t.is(a[0]+1, "const") || t.is(a[0]+1, "void")) {
		return
	}
	t.insert(int(t.tok(a[0]).Start), fix.cast+"(")
	t.insert(int(t.tok(a[1]).End), ")")
	t.report(a[0], diag.Note, "call-fix", e.HIP+" "+fix.why+", unlike "+e.CUDA+": the argument is cast")
}
