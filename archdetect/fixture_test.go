package archdetect

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// fixtureHost is a Host over testdata/<dir>: sysfs files under sys/ and
// recorded tool outputs under tools/ (<name>.out is standard output of a
// successful run; <name>.fail the standard error of a failed one, with
// <name>.stdout its standard output). A tool with neither file is not in
// PATH. dir "" is a bare machine: no sysfs, no tools.
func fixtureHost(t *testing.T, dir string, env map[string]string) Host {
	t.Helper()
	root := t.TempDir()
	if dir != "" {
		root = filepath.Join("testdata", dir)
		if _, err := os.Stat(root); err != nil {
			t.Fatalf("fixture %s: %v", dir, err)
		}
	}
	tools := filepath.Join(root, "tools")
	read := func(name, ext string) (string, bool) {
		b, err := os.ReadFile(filepath.Join(tools, name+ext))
		if errors.Is(err, fs.ErrNotExist) {
			return "", false
		}
		if err != nil {
			t.Fatal(err)
		}
		return string(b), true
	}
	return Host{
		Root:   root,
		Getenv: func(k string) string { return env[k] },
		LookPath: func(name string) (string, error) {
			_, out := read(name, ".out")
			_, fail := read(name, ".fail")
			if out || fail {
				return "/fixture/bin/" + name, nil
			}
			return "", fmt.Errorf("exec: %q: executable file not found in $PATH", name)
		},
		Run: func(name string, args ...string) ([]byte, error) {
			base := filepath.Base(name)
			if out, ok := read(base, ".out"); ok {
				return []byte(out), nil
			}
			if stderr, ok := read(base, ".fail"); ok {
				stdout, _ := read(base, ".stdout")
				return []byte(stdout), &ExitError{Command: base, Code: 1, Stderr: stderr, Stdout: stdout}
			}
			t.Fatalf("fixture %s: ran %s, which is not in PATH", dir, name)
			return nil, nil
		},
	}
}
