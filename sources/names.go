package sources

import "sync"

// nameTables are the tables of names that the walk looks up in maps: they
// are built on first need, not when the program starts, so that a process
// that translates nothing does not build them, and one that does can build
// them while it lists its sources (see Warm).
type nameTables struct {
	polyfills      map[string]polyfill    // by CUDA name
	special        map[string]specialName // identifiers with rules beyond the table
	specialFilter  *nameFilter            // rejects most identifiers before special
	polyfillFilter *nameFilter            // rejects most identifiers before polyfills
}

var tables = sync.OnceValue(func() *nameTables {
	nt := &nameTables{polyfills: polyfillList(), special: specialList(), specialFilter: &nameFilter{}, polyfillFilter: &nameFilter{}}
	addCGPolyfills(nt.polyfills)
	for n := range nt.special {
		nt.specialFilter.add(n)
	}
	for n := range nt.polyfills {
		nt.polyfillFilter.add(n)
	}
	return nt
})

// Warm builds the tables of names now rather than in the first
// translation: a caller that lists its sources first can call it on
// another goroutine meanwhile.
func Warm() {
	tables()
}
