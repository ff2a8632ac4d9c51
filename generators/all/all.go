// Package all is the fixed registration list of build-system generators.
// Adding a build system is a new package under generators/ and one line in
// List; nothing else in hipgen enumerates generators.
package all

import (
	"github.com/hipgen/hipgen/generators"
	"github.com/hipgen/hipgen/generators/cmake"
)

// List returns every generator, in the order 'hipgen generate all' runs
// them.
func List() []generators.Generator {
	return []generators.Generator{
		cmake.New(),
	}
}

// Lookup returns the generator named name, or nil.
func Lookup(name string) generators.Generator {
	for _, g := range List() {
		if g.Name() == name {
			return g
		}
	}
	return nil
}

// Names lists the generators' names in List order.
func Names() []string {
	var names []string
	for _, g := range List() {
		names = append(names, g.Name())
	}
	return names
}
