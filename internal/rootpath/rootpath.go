// Package rootpath decides whether a path stays inside a root directory once
// symbolic links are followed. The manifest loader (globs, includes,
// imports) and the writer of generated files share it, so "inside the
// project" means one thing everywhere. It only reads the file system.
package rootpath

import (
	"os"
	"path/filepath"
	"strings"
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
