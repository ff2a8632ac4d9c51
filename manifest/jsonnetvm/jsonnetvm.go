// Package jsonnetvm evaluates hipgen.jsonnet with go-jsonnet, imports
// confined to the project root. It is the whole of hipgen-jsonnet, the
// helper program that 'hipgen' runs to evaluate a manifest: go-jsonnet and
// the packages it pulls in take about half a millisecond to initialize, which
// every hipgen command would otherwise pay at start, manifest or not (see
// package manifest, which caches what the helper returns).
package jsonnetvm

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/google/go-jsonnet"
	"github.com/google/go-jsonnet/ast"
	"github.com/hipgen/hipgen/internal/rootpath"
	"github.com/hipgen/hipgen/manifest"
)

// Evaluate runs the Jsonnet program src, named file (a slash path relative
// to root), and returns its JSON output and the files it imported (slash
// paths relative to root), on which the output depends besides src, each
// with the manifest.ContentDigest of the bytes it evaluated. An error reads
// "file:line:col: message" where the position is known.
func Evaluate(root, file string, src []byte) (out string, imports map[string]string, err error) {
	vm := jsonnet.MakeVM()
	imp := &rootImporter{root: root, cache: map[string]jsonnet.Contents{}, digests: map[string]string{}}
	imp.cache[file] = jsonnet.MakeContentsRaw(src)
	vm.Importer(imp)
	vm.ErrorFormatter = &positionFormatter{file: file}
	out, err = vm.EvaluateFile(file)
	if err != nil {
		return "", nil, err
	}
	return out, imp.digests, nil
}

// Main is the helper program: "hipgen-jsonnet ROOT FILE" evaluates the
// Jsonnet program read from stdin as ROOT/FILE and prints a
// manifest.HelperReply as JSON.
// It exits 0 when it printed one, evaluation errors included, and 2 with a
// message on stderr when it could not.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) != 2 {
		fmt.Fprintln(stderr, "usage: hipgen-jsonnet ROOT FILE < SOURCE (hipgen runs it to evaluate hipgen.jsonnet)")
		return 2
	}
	src, err := io.ReadAll(stdin)
	if err != nil {
		fmt.Fprintf(stderr, "hipgen-jsonnet: reading %s: %v\n", args[1], err)
		return 2
	}
	var r manifest.HelperReply
	r.Output, r.Imports, err = Evaluate(args[0], args[1], src)
	if err != nil {
		r.Error = err.Error()
	}
	if err := json.NewEncoder(stdout).Encode(&r); err != nil {
		fmt.Fprintf(stderr, "hipgen-jsonnet: %v\n", err)
		return 2
	}
	return 0
}

// rootImporter resolves imports relative to the importing file and refuses
// any path that leaves the project root, also through symbolic links.
// foundAt values are slash paths relative to the root, so error messages
// name files the way users see them. digests records what each file read
// held.
type rootImporter struct {
	root    string
	cache   map[string]jsonnet.Contents
	digests map[string]string
}

func (r *rootImporter) Import(importedFrom, importedPath string) (jsonnet.Contents, string, error) {
	if importedPath == "" {
		return jsonnet.Contents{}, "", errors.New("empty import path")
	}
	if path.IsAbs(importedPath) || filepath.IsAbs(importedPath) {
		return jsonnet.Contents{}, "", fmt.Errorf("import %q: absolute paths are not allowed; imports must stay inside the project root", importedPath)
	}
	rel := path.Clean(path.Join(path.Dir(importedFrom), importedPath))
	if rel == ".." || strings.HasPrefix(rel, "../") {
		return jsonnet.Contents{}, "", fmt.Errorf("import %q leaves the project root", importedPath)
	}
	if c, ok := r.cache[rel]; ok {
		return c, rel, nil
	}
	full := filepath.Join(r.root, filepath.FromSlash(rel))
	if real, ok, err := rootpath.Within(r.root, full); err != nil {
		return jsonnet.Contents{}, "", fmt.Errorf("import %q: %v", importedPath, err)
	} else if !ok {
		return jsonnet.Contents{}, "", fmt.Errorf("import %q: it is a symbolic link to %s, outside the project root", importedPath, real)
	}
	data, err := os.ReadFile(full)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return jsonnet.Contents{}, "", fmt.Errorf("import %q: file %s not found", importedPath, rel)
		}
		return jsonnet.Contents{}, "", fmt.Errorf("import %q: %v", importedPath, err)
	}
	c := jsonnet.MakeContentsRaw(data)
	r.cache[rel] = c
	r.digests[rel] = manifest.ContentDigest(data)
	return c, rel, nil
}

// positionFormatter prints Jsonnet errors as "file:line:col: message" with
// no stack trace, which is what users see on stderr.
type positionFormatter struct{ file string }

func (f *positionFormatter) SetMaxStackTraceSize(int)                 {}
func (f *positionFormatter) SetColorFormatter(jsonnet.ColorFormatter) {}

func (f *positionFormatter) Format(err error) string {
	var rt jsonnet.RuntimeError
	if errors.As(err, &rt) {
		// The innermost frame is last: that is where the error was raised.
		for i := len(rt.StackTrace) - 1; i >= 0; i-- {
			if fr := rt.StackTrace[i]; fr.Loc.IsSet() {
				return formatLoc(fr.Loc, rt.Msg)
			}
		}
		return f.file + ": " + rt.Msg
	}
	type located interface{ Loc() ast.LocationRange }
	if st, ok := err.(located); ok {
		loc := st.Loc()
		msg := err.Error()
		if loc.IsSet() {
			msg = strings.TrimPrefix(msg, loc.String()+" ")
			return formatLoc(loc, "syntax error: "+msg)
		}
		return f.file + ": syntax error: " + strings.TrimSpace(msg)
	}
	return f.file + ": " + err.Error()
}

func formatLoc(loc ast.LocationRange, msg string) string {
	name := loc.FileName
	if loc.File != nil && loc.File.DiagnosticFileName != "" {
		name = string(loc.File.DiagnosticFileName)
	}
	return fmt.Sprintf("%s:%d:%d: %s", name, loc.Begin.Line, loc.Begin.Column, msg)
}
