package sources

import (
	"strconv"
	"sync"

	"github.com/hipgen/hipgen/diag"
	"github.com/hipgen/hipgen/sources/hipmap"
	"github.com/hipgen/hipgen/sources/lex"
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
	// rename is the HIP function that takes the form with args arguments
	// (one fewer, with missing appended, when CUDA's last has a default):
	// HIP gives that form its own name (see renameCall).
	rename string
	// bufferFrom is the CUDA function whose last argument, a work
	// buffer, HIP's function takes again as an extra last argument, where
	// CUDA's keeps it in the descriptor both take (see appendBuffer);
	// bufferUntil, when set, is the ROCm release whose function no longer
	// takes it.
	bufferFrom  string
	bufferUntil hipmap.Version
}

const kernelCast = "reinterpret_cast<const void*>"

var callFixes = sync.OnceValue(func() map[string]callFix {
	return map[string]callFix{
		"cudaFuncSetAttribute":       {args: 3, arg: 0, cast: kernelCast, why: "takes the kernel as const void*, not as a function pointer"},
		"cudaFuncSetCacheConfig":     {args: 2, arg: 0, cast: kernelCast, why: "takes the kernel as const void*, not as a function pointer"},
		"cudaFuncSetSharedMemConfig": {args: 2, arg: 0, cast: kernelCast, why: "takes the kernel as const void*, not as a function pointer"},
		"cudaFuncGetAttributes":      {args: 2, arg: 1, cast: kernelCast, why: "takes the kernel as const void*, not as a function pointer"},
		"cudaHostAlloc":              {args: 3, arg: 0, cast: "reinterpret_cast<void**>", why: "takes void**, with no template overload for T**"},
		"cudaMallocPitch":            {args: 4, arg: 0, cast: "reinterpret_cast<void**>", why: "takes void**, with no template overload for T**"},
		"cudaMallocAsync":            {args: 3, arg: 0, cast: "reinterpret_cast<void**>", why: "takes void**, with no template overload for T**"},
		"cudaHostGetDevicePointer":   {args: 3, arg: 0, cast: "reinterpret_cast<void**>", why: "takes void**, with no template overload for T**"},
		"cudaMalloc3DArray":          {args: 3, missing: "0", why: "has no default for its flags argument"},
		"cudaStreamWaitEvent":        {args: 2, missing: "0", why: "has no default for its flags argument"},
		"cudaGraphInstantiate":       {args: 3, missing: "0", rename: "cudaGraphInstantiateWithFlags", why: "keeps CUDA 11's five arguments (error node, log buffer and size); CUDA 12's form with flags"},
		// hipSPARSE's hipsparse.h at the ROCm tags: SpSV_solve takes the
		// buffer before 6.0, SpSM_solve in every release to 6.2.
		"cusparseSpSV_solve": {args: 9, bufferFrom: "cusparseSpSV_analysis", bufferUntil: hipmap.Version{Major: 6, Minor: 0},
			why: "takes, before ROCm 6.0, the work buffer given to hipsparseSpSV_analysis again as its last argument (CUDA's keeps it in the descriptor)"},
		"cusparseSpSM_solve": {args: 10, bufferFrom: "cusparseSpSM_analysis",
			why: "takes the work buffer given to hipsparseSpSM_analysis again as its last argument, in ROCm 5.2 to 6.2 at least (CUDA's keeps it in the descriptor)"},
	}
})

// fixCall patches the call of e's HIP function whose name is at k. More
// arguments than the fix expects may be template commas splitting one
// (kern<T, 4> is not bracketed): they are joined where an identifier's
// '<' is still open. A different count after that means the call already
// has what was missing, or is not understood: it is then left alone.
func (t *translator) fixCall(k int, fix callFix, e hipmap.Entry) {
	if fix.rename != "" {
		t.renameCall(k, fix, e)
		return
	}
	if fix.bufferFrom != "" {
		t.appendBuffer(k, fix, e)
		return
	}
	args, close, ok := t.call(k)
	if ok && len(args) > fix.args {
		args, ok = t.joinTemplateArgs(args)
	}
	if !ok || len(args) != fix.args {
		return
	}
	if fix.missing != "" {
		t.insert(int(t.tok(close).Start), ", "+fix.missing)
		t.report(k, diag.Note, "call-fix", e.HIP+" "+fix.why+": added "+fix.missing)
		return
	}
	a := args[fix.arg]
	if t.castToVoidPointer(a[0], a[1]) {
		return
	}
	t.insert(int(t.tok(a[0]).Start), fix.cast+"(")
	t.insert(int(t.tok(a[1]).End), ")")
	t.report(a[0], diag.Note, "call-fix", e.HIP+" "+fix.why+", unlike "+e.CUDA+": the argument is cast")
}

// castToVoidPointer reports whether tokens first..last start with a cast
// to a void pointer (reinterpret_cast<const void*>(k), (void**)&p): a cast
// to another type (a function pointer type) still needs the fix's.
func (t *translator) castToVoidPointer(first, last int) bool {
	switch string(t.text(first)) {
	case "reinterpret_cast", "static_cast", "const_cast":
		if !t.is(first+1, "<") {
			return false
		}
		for j := first + 2; j <= last && !t.is(j, ">"); j++ {
			if t.is(j, "void") {
				return true
			}
		}
	case "(":
		return t.is(first+1, "const") || t.is(first+1, "void")
	}
	return false
}

// joinTemplateArgs joins arguments that args split at the commas of a
// template argument list: a '<' right after an identifier opens one, and
// '>' or '>>' close it (inside the argument's own parentheses neither
// counts). ok is false when a list is still open at the end.
func (t *translator) joinTemplateArgs(args [][2]int) (joined [][2]int, ok bool) {
	open := 0
	for _, a := range args {
		if open > 0 {
			joined[len(joined)-1][1] = a[1]
		} else {
			joined = append(joined, a)
		}
		depth := 0
		for j := a[0]; j <= a[1]; j++ {
			switch string(t.text(j)) {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				depth--
			case "<":
				if depth == 0 && j > a[0] && t.tok(j-1).Kind == lex.Ident {
					open++
				}
			case ">":
				if depth == 0 && open > 0 {
					open--
				}
			case ">>":
				if depth == 0 {
					open = max(open-2, 0)
				}
			}
		}
	}
	return joined, open == 0
}

// renamedCallHIP names, by HIP name, the functions of the rename fixes,
// whose calls an earlier translation renamed.
var renamedCallHIP = map[string]string{"hipGraphInstantiate": "cudaGraphInstantiate"}

// unportableCallForm returns, for a call at k of a form that a fix cannot
// port to the target ROCm (see callFix.rename), what it is, and "" for any
// other token. The function may be named by its CUDA name or by the HIP
// name an earlier translation gave it.
func (t *translator) unportableCallForm(k int) string {
	b := string(t.text(k))
	for _, name := range [2]string{b, renamedCallHIP[b]} {
		f, ok := callFixes()[name]
		if !ok || f.rename == "" || t.renameAvailable(f) {
			continue
		}
		if n := t.callArgs(k); n == f.args || n == f.args-1 {
			return "the " + strconv.Itoa(n) + "-argument form of " + name
		}
	}
	return ""
}

// call returns the arguments of the call whose function name is at k
// (see args) and the position of its closing parenthesis; ok is false
// when k is not called or the list is malformed.
func (t *translator) call(k int) (args [][2]int, close int, ok bool) {
	if !t.is(k+1, "(") {
		return nil, -1, false
	}
	if close = t.matching(k + 1); close < 0 {
		return nil, -1, false
	}
	args, ok = t.args(k+1, close)
	return args, close, ok
}

// callArgs counts the arguments of the call whose function name is at k,
// or returns -1 when k is not called.
func (t *translator) callArgs(k int) int {
	if args, _, ok := t.call(k); ok {
		return len(args)
	}
	return -1
}

// renameCall gives the call at k of e's function, when it has fix.args
// arguments or one fewer, the name of fix.rename's HIP function, and
// appends fix.missing to the shorter form.
func (t *translator) renameCall(k int, fix callFix, e hipmap.Entry) {
	args, close, ok := t.call(k)
	if !ok || len(args) != fix.args && len(args) != fix.args-1 {
		return
	}
	to, ok := t.tbl.Identifier(fix.rename, t.ver)
	if !ok || !to.Available(t.ver) {
		since := ""
		if ok && !to.MinROCm.IsZero() {
			since = ", which came with ROCm " + to.MinROCm.String()
		}
		t.report(k, diag.Error, "unsupported-api", "this "+strconv.Itoa(len(args))+"-argument call of "+e.CUDA+" has no counterpart in ROCm "+t.ver.String()+": "+e.HIP+" "+fix.why+" is "+to.HIP+since)
		return
	}
	t.setReplacement(k, to.HIP)
	added := ""
	if len(args) == fix.args-1 {
		t.insert(int(t.tok(close).Start), ", "+fix.missing)
		added = ", and its flags (" + fix.missing + ", CUDA's default) are added"
	}
	t.report(k, diag.Note, "call-fix", e.HIP+" "+fix.why+" is "+to.HIP+": the call is renamed"+added)
}

// setReplacement makes s the replacement of the token at k, which an
// earlier edit replaced.
func (t *translator) setReplacement(k int, s string) {
	tk := t.tok(k)
	for i := len(t.edits) - 1; i >= 0; i-- {
		if e := &t.edits[i]; e.start == int(tk.Start) && e.end == int(tk.End) {
			e.text = s
			return
		}
	}
	t.replace(k, s)
}

// renameAvailable reports whether the target ROCm has the function fix
// renames calls to.
func (t *translator) renameAvailable(fix callFix) bool {
	to, ok := t.tbl.Identifier(fix.rename, t.ver)
	return ok && to.Available(t.ver)
}

// appendBuffer appends to the call at k of e's function, when it has
// fix.args arguments (CUDA's form), the work buffer that the file's call
// of fix.bufferFrom with the same descriptor (its second to last
// argument, the call's last) was given: the nearest such call before k,
// else the first after it. With none, the call is reported.
func (t *translator) appendBuffer(k int, fix callFix, e hipmap.Entry) {
	if !fix.bufferUntil.IsZero() && !t.ver.Less(fix.bufferUntil) {
		return
	}
	args, close, ok := t.call(k)
	if !ok || len(args) != fix.args {
		return
	}
	descr := t.argText(args[len(args)-1])
	buffer, namesAPI := "", false
	for j := range t.toks {
		if j > k && buffer != "" {
			break
		}
		if t.tok(j).Kind != lex.Ident || !t.is(j, fix.bufferFrom) {
			continue
		}
		if a, _, ok := t.call(j); ok && len(a) == fix.args+1 && t.argText(a[len(a)-2]) == descr {
			// A copy would keep CUDA names that the walk renames where
			// they stand, so that a second translation would change it
			// (found by FuzzTranslate): such a buffer is given by hand.
			buffer, namesAPI = "", !t.namesNoAPI(a[len(a)-1])
			if !namesAPI {
				buffer = t.span(a[len(a)-1][0], a[len(a)-1][1])
			}
		}
	}
	from := "hip" + fix.bufferFrom[2:]
	if namesAPI {
		t.report(k, diag.Error, "call-fix", e.HIP+" "+fix.why+": the buffer of the "+fix.bufferFrom+" call with "+descr+" is an expression that names the CUDA API, which hipgen does not copy; pass the buffer given to "+from+" for it as a last argument")
		return
	}
	if buffer == "" {
		t.report(k, diag.Error, "call-fix", e.HIP+" "+fix.why+": no call of "+fix.bufferFrom+" with "+descr+" was found in the file; pass the buffer given to "+from+" for it as a last argument")
		return
	}
	t.insert(int(t.tok(close).Start), ", "+buffer)
	t.report(k, diag.Note, "call-fix", e.HIP+" "+fix.why+": added "+buffer+", the buffer of the "+fix.bufferFrom+" call with "+descr)
}

// namesNoAPI reports whether the argument a names nothing that the
// translation renames: no identifier of the tables, no polyfill and no
// name with a rule of its own.
func (t *translator) namesNoAPI(a [2]int) bool {
	for j := a[0]; j <= a[1]; j++ {
		if t.tok(j).Kind != lex.Ident {
			continue
		}
		b := t.text(j)
		if _, ok := t.lookupIdent(b); ok || t.hasOwnRule(b) {
			return false
		}
	}
	return true
}

// argText returns the tokens of the argument a without what lies between
// them, so that two spellings of one expression compare equal.
func (t *translator) argText(a [2]int) string {
	var b []byte
	for j := a[0]; j <= a[1]; j++ {
		if j > a[0] && t.tok(j).Kind == lex.Ident && t.tok(j-1).Kind == lex.Ident {
			b = append(b, ' ')
		}
		b = append(b, t.text(j)...)
	}
	return string(b)
}
