package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestBadManifestsExitAndWriteNothing runs 'hipgen manifest' and 'hipgen
// translate' in process on every bad-manifest testscript's files and checks
// what the scripts cannot: exit code 2 exactly, and no file created or
// changed.
func TestBadManifestsExitAndWriteNothing(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testscripts", "manifest_bad_*.txtar"))
	if len(files) < 15 {
		t.Fatalf("want at least 15 bad-manifest cases, found %d", len(files))
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".txtar")
		t.Run(name, func(t *testing.T) {
			ar, err := txtar.ParseFile(f)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			for _, af := range ar.Files {
				p := filepath.Join(dir, filepath.FromSlash(af.Name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, af.Data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			proj := dir
			if _, err := os.Stat(filepath.Join(dir, "proj")); err == nil {
				proj = filepath.Join(dir, "proj")
			}
			before := snapshot(t, dir)
			for _, cmd := range manifestCommands {
				if cmd == "arch" && name == "manifest_bad_missing" {
					continue // arch works without a manifest, from flags, environment and detection
				}
				var stdout, stderr bytes.Buffer
				code := run([]string{"-C", proj, cmd}, strings.NewReader(""), &stdout, &stderr)
				if code != exitUsage {
					t.Errorf("hipgen %s: exit %d, want %d\nstderr:\n%s", cmd, code, exitUsage, stderr.String())
				}
				if stdout.Len() != 0 {
					t.Errorf("hipgen %s: wrote to stdout: %q", cmd, stdout.String())
				}
				if !strings.Contains(stderr.String(), "hipgen.jsonnet") && !strings.Contains(stderr.String(), ".libsonnet") {
					t.Errorf("hipgen %s: error does not name the manifest file:\n%s", cmd, stderr.String())
				}
				if strings.Contains(stderr.String(), "goroutine ") || strings.Contains(stderr.String(), "panic") {
					t.Errorf("hipgen %s: stack trace in output:\n%s", cmd, stderr.String())
				}
			}
			if after := snapshot(t, dir); after != before {
				t.Errorf("files changed:\nbefore:\n%s\nafter:\n%s", before, after)
			}
		})
	}
}

// snapshot lists every file with its size and content hash-free bytes, so
// any creation or modification shows.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.Type()&fs.ModeSymlink != 0 {
			b.WriteString(rel + " -> link\n")
			return nil
		}
		if d.IsDir() {
			b.WriteString(rel + "/\n")
			return nil
		}
		data, _ := os.ReadFile(p)
		b.WriteString(rel + " " + string(data) + "\n")
		return nil
	})
	return b.String()
}

// TestManifestDeterministic checks that 'hipgen manifest' prints the same
// bytes on every run (globs sorted, stable order).
func TestManifestDeterministic(t *testing.T) {
	root := filepath.Join("..", "..", "examples", "vecadd")
	var first string
	for i := 0; i < 10; i++ {
		var stdout, stderr bytes.Buffer
		if code := run([]string{"-C", root, "manifest"}, nil, &stdout, &stderr); code != exitOK {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
		if i == 0 {
			first = stdout.String()
			if !strings.Contains(first, `"csrc/reduce.cu",`) {
				t.Fatalf("unexpected manifest output:\n%s", first)
			}
			continue
		}
		if stdout.String() != first {
			t.Fatalf("run %d differs from run 1:\n%s\n---\n%s", i+1, stdout.String(), first)
		}
	}
}

// manifestCommands are the subcommands that load the manifest first; each
// must refuse a bad one the same way.
var manifestCommands = []string{"manifest", "translate", "generate", "build", "test", "arch"}
