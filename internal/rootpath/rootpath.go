// Package rootpath decides whether a path stays inside a root directory once
// symbolic links are followed. The manifest loader (globs, includes,
// imports) and the writer of generated files share it, so "inside the
// project" means one thing everywhere. It only reads the file system.
package rootpath

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Within follows symbolic links on the longest existing prefix of the
// absolute path full (all of it when it exists) and reports whether the
// result is root or below it, root's own links followed too. real is the
// resolved prefix, for error messages.
func Within(root, full string) (real string, ok bool, err error) {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", false, err
	}
	existing := full
	for {
		if _, err := os.Lstat(existing); err == nil {
			break
		}
		parent := filepath.Dir(existing)
		if parent == existing {
			break
		}
		existing = parent
	}
	real, err = filepath.EvalSymlinks(existing)
	if err != nil {
		return "", false, err
	}
	ok = real == realRoot || strings.HasPrefix(real, realRoot+string(filepath.Separator))
	return real, ok, nil
}

// Dirs answers Within for many paths below one root from any number of
// goroutines, looking at each directory once: a path whose parent is
// inside the root is inside unless it is a symbolic link, so a new path
// costs one Lstat (links are followed with Within).
type Dirs struct {
	root string
	// known maps each path looked at to whether it is inside: a
	// sync.Map, which goroutines read without waiting on each other (a
	// translation asks for every file it reads or writes).
	known sync.Map
}

// NewDirs returns a Dirs for root.
func NewDirs(root string) *Dirs {
	d := &Dirs{root: root}
	d.known.Store(".", true)
	return d
}

// Inside reports whether rel, a clean relative path without "..", is
// inside the root once symbolic links are followed. A path that does not
// exist is inside when its existing parent is.
func (d *Dirs) Inside(rel string) bool {
	if ok, done := d.known.Load(rel); done {
		return ok.(bool)
	}
	ok := d.Inside(filepath.Dir(rel))
	if ok {
		full := filepath.Join(d.root, rel)
		if st, err := os.Lstat(full); err == nil && st.Mode()&os.ModeSymlink != 0 {
			_, ok, err = Within(d.root, full)
			ok = ok && err == nil
		}
	}
	d.known.Store(rel, ok)
	return ok
}

// MarkInside records that rel, a clean relative path, is inside the root,
// for a caller that knows it better than a look-up would: a directory
// reached from an inside directory by a walk that does not follow links.
func (d *Dirs) MarkInside(rel string) {
	d.known.Store(rel, true)
}
