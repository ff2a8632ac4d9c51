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

// New returns a function that compiles expr the first time it is called
// (panicking if expr is invalid, like regexp.MustCompile) and returns that
// one *regexp.Regexp on every call.
func New(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
