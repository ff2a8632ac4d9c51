package manifest

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
)

// globMatch returns the slash paths, relative to root, that the slash
// pattern pat (relative to root, cleaned) matches: '*', '?' and '[...]'
// within a path element as path.Match reads them, '{a,b}' for either
// alternative (nested, and spanning elements: '{x/*.cu,y.cu}'), and '**'
// as a whole element for any number of directories, none included (as the
// last element, for everything below).
// Wildcards match names starting with '.' too; '**' and wildcards do not
// follow symbolic links to directories, while a named element is followed
// like any path. Directories for which skipped reports true (given the
// slash path and a final '/') are not entered. The result may hold
// duplicates and directories, in no particular order.
func globMatch(root, pat string, skipped func(dir string) bool) ([]string, error) {
	alts, err := expandBraces(pat)
	if err != nil {
		return nil, err
	}
	m := globWalk{root: root, skipped: skipped}
	for _, a := range alts {
		elems := strings.Split(a, "/")
		for _, e := range elems {
			if _, err := path.Match(e, ""); err != nil {
				return nil, fmt.Errorf("%q: %v", e, err)
			}
		}
		if err := m.match("", elems); err != nil {
			return nil, err
		}
	}
	return m.out, nil
}

// globWalk matches pattern elements against the directories below root.
type globWalk struct {
	root    string
	skipped func(dir string) bool
	out     []string
}

// match adds the paths below the directory rel ("" for the root) that the
// elements elems match.
func (m *globWalk) match(rel string, elems []string) error {
	if len(elems) == 0 {
		if rel != "" {
			m.out = append(m.out, rel)
		}
		return nil
	}
	e, rest := elems[0], elems[1:]
	switch {
	case e == "**":
		// No directory, or one more and ** again.
		if err := m.match(rel, rest); err != nil {
			return err
		}
		return m.eachEntry(rel, func(name string, dir bool) error {
			switch {
			case dir:
				return m.match(path.Join(rel, name), elems)
			case len(rest) == 0:
				m.out = append(m.out, path.Join(rel, name)) // a final ** takes files too
			}
			return nil
		})
	case !strings.ContainsAny(e, "*?["):
		p := path.Join(rel, e)
		if _, err := os.Lstat(m.full(p)); err != nil {
			return nil // nothing there
		}
		return m.match(p, rest)
	default:
		return m.eachEntry(rel, func(name string, dir bool) error {
			if ok, _ := path.Match(e, name); !ok || (len(rest) > 0 && !dir) {
				return nil
			}
			return m.match(path.Join(rel, name), rest)
		})
	}
}

// eachEntry calls f with each entry of the directory rel, telling whether
// it is a directory (not a symbolic link to one) that a glob may enter.
// A directory that is not there, or not a directory, has no entries.
func (m *globWalk) eachEntry(rel string, f func(name string, dir bool) error) error {
	entries, err := os.ReadDir(m.full(rel))
	if err != nil {
		if errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			return nil
		}
		return err
	}
	for _, d := range entries {
		dir := d.IsDir() && !m.skipped(path.Join(rel, d.Name())+"/")
		if err := f(d.Name(), dir); err != nil {
			return err
		}
	}
	return nil
}

func (m *globWalk) full(rel string) string {
	return filepath.Join(m.root, filepath.FromSlash(rel))
}

// expandBraces returns the patterns that pat's '{a,b}' alternatives make,
// in order: "{a,b{c,d}}.cu" gives a.cu, bc.cu and bd.cu.
func expandBraces(pat string) ([]string, error) {
	open := strings.IndexByte(pat, '{')
	if open < 0 {
		if strings.IndexByte(pat, '}') >= 0 {
			return nil, fmt.Errorf("unmatched '}' in %q", pat)
		}
		return []string{pat}, nil
	}
	// The alternatives of the first brace, split at its top-level commas.
	depth, start := 0, open+1
	var alts []string
	end := -1
	for i := open; i < len(pat) && end < 0; i++ {
		switch pat[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				alts = append(alts, pat[start:i])
				end = i
			}
		case ',':
			if depth == 1 {
				alts = append(alts, pat[start:i])
				start = i + 1
			}
		}
	}
	if end < 0 {
		return nil, fmt.Errorf("unmatched '{' in %q", pat)
	}
	if strings.IndexByte(pat[:open], '}') >= 0 {
		return nil, fmt.Errorf("unmatched '}' in %q", pat)
	}
	var out []string
	for _, a := range alts {
		more, err := expandBraces(pat[:open] + a + pat[end+1:])
		if err != nil {
			return nil, err
		}
		out = append(out, more...)
	}
	return out, nil
}
