package manifest

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/google/go-jsonnet"
	"github.com/google/go-jsonnet/ast"
)

// evaluate runs the Jsonnet program in file (a slash path relative to
// root) and returns its JSON output. Imports are confined to root.
func evaluate(root, file string, src []byte) (string, error) {
	vm := jsonnet.MakeVM()
	imp := &rootImporter{root: root, cache: map[string]jsonnet.Contents{}}
	imp.cache[file] = jsonnet.MakeContentsRaw(src)
	vm.Importer(imp)
	vm.ErrorFormatter = &positionFormatter{file: file}
	out, err := vm.EvaluateFile(file)
	if err != nil {
		return "", err
	}
	return out, nil
}

// rootImporter resolves imports relative to the importing file and refuses
// any path that leaves the project root, also through symbolic links.
// foundAt values are slash paths relative to the root, so error messages
// name files the way users see them.
type rootImporter struct {
	root  string
	cache map[string]jsonnet.Contents
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
	if err := insideRoot(r.root, full); err != nil {
		return jsonnet.Contents{}, "", fmt.Errorf("import %q: %v", importedPath, err)
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
