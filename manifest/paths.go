package manifest

import (
	"errors"
	"fmt"
	"github.com/hipgen/hipgen/internal/rootpath"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// cleanRel checks a user-written project path: relative, slash-separated,
// not leaving the root. It returns the cleaned form.
func cleanRel(p string) (string, error) {
	if p == "" {
		return "", errors.New("empty path")
	}
	if filepath.IsAbs(p) || strings.HasPrefix(p, "/") || strings.Contains(p, `\`) {
		return "", fmt.Errorf("%q: absolute or backslash paths are not allowed; use a path relative to the project root", p)
	}
	c := path.Clean(p)
	if c == ".." || strings.HasPrefix(c, "../") {
		return "", fmt.Errorf("%q leaves the project root", p)
	}
	return c, nil
}

// insideRoot fails unless full, after following symbolic links, is root or
// below it.
func insideRoot(root, full string) error {
	real, ok, err := rootpath.Within(root, full)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("it is a symbolic link to %s, outside the project root", real)
	}
	return nil
}

// globber expands manifest patterns against the project root. It skips the
// translated tree and hipgen's build directory, so a glob such as
// '**/*.cuh' never picks up generated copies.
type globber struct {
	root string
	skip []string // slash prefixes ending in '/'
}

func newGlobber(root, translateOut string) *globber {
	g := &globber{root: root, skip: []string{"build/hipgen/"}}
	if translateOut != "" && translateOut != "." {
		g.skip = append(g.skip, translateOut+"/")
	}
	return g
}

func (g *globber) skipped(rel string) bool {
	for _, s := range g.skip {
		if strings.HasPrefix(rel, s) {
			return true
		}
	}
	return false
}

// glob returns the files matching pat, sorted, as slash paths relative to
// the root. A pattern that matches nothing is an error.
func (g *globber) glob(pat string) ([]string, error) {
	rel, err := cleanRel(pat)
	if err != nil {
		return nil, err
	}
	if !strings.ContainsAny(rel, "*?[{") {
		full := filepath.Join(g.root, filepath.FromSlash(rel))
		st, err := os.Stat(full)
		if err != nil {
			return nil, fmt.Errorf("file %q not found", pat)
		}
		if st.IsDir() {
			return nil, fmt.Errorf("%q is a directory; name files or use a glob such as %q", pat, rel+"/**/*.cu")
		}
		if err := insideRoot(g.root, full); err != nil {
			return nil, fmt.Errorf("%q: %v", pat, err)
		}
		return []string{rel}, nil
	}
	matches, err := globMatch(g.root, rel, g.skipped)
	if err != nil {
		return nil, fmt.Errorf("bad glob %q: %v", pat, err)
	}
	var out []string
	for _, r := range matches {
		m := filepath.Join(g.root, filepath.FromSlash(r))
		st, err := os.Stat(m)
		if err != nil || st.IsDir() || g.skipped(r) {
			continue
		}
		if err := insideRoot(g.root, m); err != nil {
			return nil, fmt.Errorf("%q matches %s: %v", pat, r, err)
		}
		out = append(out, r)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("glob %q matched no files", pat)
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// dir checks an include directory: inside the root and existing.
func (g *globber) dir(p string) (string, error) {
	rel, err := cleanRel(p)
	if err != nil {
		return "", err
	}
	full := filepath.Join(g.root, filepath.FromSlash(rel))
	st, err := os.Stat(full)
	if err != nil {
		return "", fmt.Errorf("directory %q not found", p)
	}
	if !st.IsDir() {
		return "", fmt.Errorf("%q is not a directory", p)
	}
	if err := insideRoot(g.root, full); err != nil {
		return "", fmt.Errorf("%q: %v", p, err)
	}
	return rel, nil
}
