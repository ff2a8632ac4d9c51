package sources

import (
	"strconv"
	"strings"
	"sync"

	"github.com/hipgen/hipgen/sources/lex"
)

// The value of an #if or #elif condition in each of hipcc's two passes,
// as the translation leaves it, where the facts of HIP decide it: whether
// the pass is the device pass (__HIP_DEVICE_COMPILE__, and the spellings of
// __CUDA_ARCH__ that become it), the platform macros (__HIP_PLATFORM_AMD__
// is defined, __HIP_PLATFORM_NVIDIA__ and __NVCC__ are not), the guards of
// CUDA library headers that HIP builds never include, and __CUDA_ARCH__
// compared or computed with, which the preprocessor reads as 0. Any other
// macro is unknown, and so is what depends on it: "defined(USE_ROCM) ||
// (defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 750)" holds in the device pass
// whatever USE_ROCM is, and is unknown in the host pass. The #else of such
// a condition is never compiled in the device pass, so inline PTX there
// never reaches an AMD GPU.

// tri is a truth value that may be unknown.
type tri uint8

const (
	triUnknown tri = iota
	triFalse
	triTrue
)

func triOf(b bool) tri {
	if b {
		return triTrue
	}
	return triFalse
}

func (a tri) not() tri {
	switch a {
	case triTrue:
		return triFalse
	case triFalse:
		return triTrue
	}
	return triUnknown
}

func (a tri) and(b tri) tri {
	switch {
	case a == triFalse || b == triFalse:
		return triFalse
	case a == triTrue && b == triTrue:
		return triTrue
	}
	return triUnknown
}

func (a tri) or(b tri) tri {
	return a.not().and(b.not()).not()
}

// passes holds a truth value for each of hipcc's passes.
type passes struct{ device, host tri }

func (p passes) not() passes         { return passes{p.device.not(), p.host.not()} }
func (p passes) and(q passes) passes { return passes{p.device.and(q.device), p.host.and(q.host)} }
func (p passes) or(q passes) passes  { return passes{p.device.or(q.device), p.host.or(q.host)} }

// ppValue is the value of a preprocessor expression, when known.
type ppValue struct {
	v     int64
	known bool
}

func (v ppValue) truth() tri {
	if !v.known {
		return triUnknown
	}
	return triOf(v.v != 0)
}

func ppBool(t tri) ppValue {
	if t == triUnknown {
		return ppValue{}
	}
	if t == triTrue {
		return ppValue{v: 1, known: true}
	}
	return ppValue{known: true}
}

// conditionPasses returns the value in each pass of the condition of the
// #if or #elif at k (its "#"), or unknown in both when the condition
// cannot be read.
func (t *translator) conditionPasses(k int) passes {
	if t.definesArchItself() {
		return passes{}
	}
	var p passes
	for i, device := range [2]bool{true, false} {
		e := ppEval{t: t, j: k + 2, device: device}
		v := e.expr(0)
		if e.bad || !t.endsDirective(e.j) {
			return passes{}
		}
		if i == 0 {
			p.device = v.truth()
		} else {
			p.host = v.truth()
		}
	}
	return p
}

// definedPasses returns the value in each pass of "defined(name)".
func (t *translator) definedPasses(name []byte) passes {
	switch {
	case string(name) == "__CUDA_ARCH__" || string(name) == "__HIP_DEVICE_COMPILE__":
		return passes{device: triTrue, host: triFalse}
	case string(name) == "__NVCC__" || cudaOnlyGuards()[string(name)]:
		return passes{triFalse, triFalse}
	}
	if onAMD, ok := t.platformMacro(name); ok {
		return passes{triOf(onAMD), triOf(onAMD)}
	}
	return passes{}
}

// ppEval reads a condition from the token j for one pass.
type ppEval struct {
	t      *translator
	j      int
	device bool
	bad    bool // not an expression this reads
}

// ppBinary gives the precedence of each binary operator (higher binds
// tighter); "?" is the conditional operator's.
var ppBinary = sync.OnceValue(func() map[string]int {
	return map[string]int{
		"?": 1, "||": 2, "&&": 3, "|": 4, "^": 5, "&": 6,
		"==": 7, "!=": 7, "<": 8, ">": 8, "<=": 8, ">=": 8,
		"<<": 9, ">>": 9, "+": 10, "-": 10, "*": 11, "/": 11, "%": 11,
	}
})

// expr reads an expression whose operators bind tighter than min.
func (e *ppEval) expr(min int) ppValue {
	x := e.unary()
	for !e.bad && !e.t.endsDirective(e.j) {
		op := string(e.t.text(e.j))
		prec, ok := ppBinary()[op]
		if !ok || e.t.tok(e.j).Kind != lex.Punct || prec <= min {
			return x
		}
		e.j++
		if op == "?" {
			a := e.expr(0)
			if !e.t.is(e.j, ":") {
				e.bad = true
				return ppValue{}
			}
			e.j++
			b := e.expr(prec - 1) // right-associative
			switch x.truth() {
			case triTrue:
				x = a
			case triFalse:
				x = b
			default:
				x = ppValue{}
				if a == b {
					x = a
				}
			}
			continue
		}
		y := e.expr(prec)
		x = ppApply(op, x, y)
	}
	return x
}

// ppApply computes x op y.
func ppApply(op string, x, y ppValue) ppValue {
	switch op {
	case "||":
		return ppBool(x.truth().or(y.truth()))
	case "&&":
		return ppBool(x.truth().and(y.truth()))
	}
	if !x.known || !y.known {
		return ppValue{}
	}
	a, b := x.v, y.v
	r := int64(0)
	switch op {
	case "|":
		r = a | b
	case "^":
		r = a ^ b
	case "&":
		r = a & b
	case "==":
		return ppBool(triOf(a == b))
	case "!=":
		return ppBool(triOf(a != b))
	case "<":
		return ppBool(triOf(a < b))
	case ">":
		return ppBool(triOf(a > b))
	case "<=":
		return ppBool(triOf(a <= b))
	case ">=":
		return ppBool(triOf(a >= b))
	case "<<", ">>":
		if b < 0 || b > 62 {
			return ppValue{}
		}
		if op == "<<" {
			r = a << b
		} else {
			r = a >> b
		}
	case "+":
		r = a + b
	case "-":
		r = a - b
	case "*":
		r = a * b
	case "/", "%":
		if b == 0 || a == -1<<63 && b == -1 {
			return ppValue{}
		}
		if op == "/" {
			r = a / b
		} else {
			r = a % b
		}
	}
	return ppValue{v: r, known: true}
}

// unary reads a unary expression.
func (e *ppEval) unary() ppValue {
	t := e.t
	if t.endsDirective(e.j) {
		e.bad = true
		return ppValue{}
	}
	tk := t.tok(e.j)
	text := t.text(e.j)
	switch {
	case tk.Kind == lex.Punct && (string(text) == "!" || string(text) == "~" || string(text) == "-" || string(text) == "+"):
		e.j++
		x := e.unary()
		if !x.known {
			return ppValue{}
		}
		switch text[0] {
		case '!':
			return ppBool(triOf(x.v == 0))
		case '~':
			return ppValue{v: ^x.v, known: true}
		case '-':
			return ppValue{v: -x.v, known: true}
		}
		return x
	case t.isByte(e.j, '('):
		e.j++
		x := e.expr(0)
		if !t.isByte(e.j, ')') {
			e.bad = true
			return ppValue{}
		}
		e.j++
		return x
	case tk.Kind == lex.Number:
		e.j++
		return ppNumber(text)
	case tk.Kind == lex.Ident && string(text) == "defined":
		m, end, _, ok := t.definedTest(e.j)
		if !ok {
			e.bad = true
			return ppValue{}
		}
		e.j = end
		d := t.definedPasses(t.text(m))
		if e.device {
			return ppBool(d.device)
		}
		return ppBool(d.host)
	case tk.Kind == lex.Ident:
		k := e.j
		e.j++
		if t.isByte(e.j, '(') {
			// A function-like macro or __has_include(...).
			end := t.groupEnd(e.j)
			if end < 0 {
				e.bad = true
				return ppValue{}
			}
			e.j = end + 1
			return ppValue{}
		}
		switch string(text) {
		case "__CUDA_ARCH__":
			if t.isTruthTest(k) {
				// It becomes __HIP_DEVICE_COMPILE__ (see cudaArchUse).
				return ppBool(triOf(e.device))
			}
			return ppValue{known: true} // undefined: 0
		case "__HIP_DEVICE_COMPILE__":
			return ppBool(triOf(e.device))
		}
		if v, ok := t.hipDefinition(text); ok {
			return ppNumber([]byte(strings.TrimSpace(v))) // unknown unless a number
		}
		return ppValue{}
	case tk.Kind == lex.Char:
		e.j++
		return ppValue{}
	}
	e.bad = true
	return ppValue{}
}

// ppNumber reads an integer literal of a condition.
func ppNumber(b []byte) ppValue {
	s := strings.ReplaceAll(strings.TrimRight(strings.ToLower(string(b)), "ul"), "'", "")
	base := 10
	switch {
	case strings.HasPrefix(s, "0x"):
		base, s = 16, s[2:]
	case strings.HasPrefix(s, "0b"):
		base, s = 2, s[2:]
	case len(s) > 1 && s[0] == '0':
		base, s = 8, s[1:]
	}
	v, err := strconv.ParseUint(s, base, 64)
	if err != nil || v > 1<<62 {
		return ppValue{}
	}
	return ppValue{v: int64(v), known: true}
}
