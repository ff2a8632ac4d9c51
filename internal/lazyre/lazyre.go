// Package lazyre compiles package-level regular expressions on first use.
// Every package linked into hipgen initialises its variables when any
// command starts; compiled there, the patterns of architecture detection,
// manifests and toolchain probes cost a translation or 'hipgen version'
// a third of a millisecond before main runs.
package lazyre

import (
	"regexp"
	"sync"
)

// Regexp is a regular expression compiled on the first call of Get.
//
// It is a plain struct, not a closure, so that a package variable
// initialised with New is laid out by the compiler: nothing of it runs or
// allocates when the program starts (a sync.OnceValue per pattern cost
// hipgen about sixty allocations before main).
type Regexp struct {
	expr     string
	once     sync.Once
	re       *regexp.Regexp
	panicked any
}

// New returns a Regexp for expr.
func New(expr string) *Regexp { return &Regexp{expr: expr} }

// Get compiles the expression the first time it is called (panicking if
// it is invalid, like regexp.MustCompile, on that call and every later
// one) and returns that one *regexp.Regexp on every call.
func (r *Regexp) Get() *regexp.Regexp {
	r.once.Do(r.compile)
	if r.re == nil {
		panic(r.panicked)
	}
	return r.re
}

func (r *Regexp) compile() {
	defer func() {
		if p := recover(); p != nil {
			r.panicked = p
			panic(p)
		}
	}()
	r.re = regexp.MustCompile(r.expr)
}
