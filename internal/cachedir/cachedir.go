// Package cachedir names hipgen's cache directory, shared by the compile
// cache (package builder) and the manifest cache (package manifest).
package cachedir

import (
	"errors"
	"path/filepath"
)

// Default picks the cache directory: HIPGEN_CACHE_DIR, else
// $XDG_CACHE_HOME/hipgen, else $HOME/.cache/hipgen. It lives outside the
// project's build/ directory so that removing build/ keeps the cache and a
// rebuild compiles nothing.
func Default(getenv func(string) string) (string, error) {
	if d := getenv("HIPGEN_CACHE_DIR"); d != "" {
		return filepath.Abs(d)
	}
	if d := getenv("XDG_CACHE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "hipgen"), nil
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".cache", "hipgen"), nil
	}
	return "", errors.New("no cache directory: set HIPGEN_CACHE_DIR, XDG_CACHE_HOME or HOME")
}
