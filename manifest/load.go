// Package manifest owns hipgen.jsonnet: it evaluates the Jsonnet program
// (imports confined to the project root), decodes the result strictly,
// validates every field, expands globs and returns a model.Project. It
// reports every problem it finds, each naming the file and the line:col or
// the field path. It reads files but never writes any.
package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hipgen/hipgen/model"
)

// FileName is the manifest's name at the project root.
const FileName = "hipgen.jsonnet"

// Defaults filled in when the manifest leaves a field out.
const (
	DefaultTranslateOut = "hip"
	DefaultLaunch       = "chevron"
	DefaultWave         = "auto"
	DefaultCMakeDir     = "cmake/hipgen"
)

// Load reads root/hipgen.jsonnet and returns the validated project.
func Load(root string) (*model.Project, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(filepath.Join(abs, FileName))
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%s: no manifest in %s (run 'hipgen init' to write one): %w", FileName, abs, ErrNotFound)
		}
		return nil, fmt.Errorf("%s: %w", FileName, err)
	}
	return LoadSource(abs, FileName, data)
}

// LoadSource validates src as if it were the manifest file name (a slash
// path relative to root). It lets 'hipgen init' check a manifest before
// writing it.
func LoadSource(root, name string, src []byte) (*model.Project, error) {
	out, err := evaluate(root, name, src)
	if err != nil {
		return nil, parseJsonnetError(name, err)
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(out)))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, ErrorList{{File: name, Msg: "manifest did not evaluate to JSON: " + err.Error()}}
	}
	c := &checker{file: name, root: root}
	p := c.project(v)
	if len(c.errs) > 0 {
		return nil, c.errs
	}
	normalize(p)
	p.Root = root
	p.ManifestFile = name
	return p, nil
}

// parseJsonnetError turns the formatter's "file:line:col: msg" text back
// into an Error so callers can inspect the position.
func parseJsonnetError(name string, err error) error {
	msg := strings.TrimSpace(err.Error())
	e := &Error{File: name, Msg: msg}
	// file:line:col: message
	parts := strings.SplitN(msg, ":", 4)
	if len(parts) == 4 {
		var line, col int
		if _, err1 := fmt.Sscanf(parts[1], "%d", &line); err1 == nil {
			if _, err2 := fmt.Sscanf(parts[2], "%d", &col); err2 == nil {
				e = &Error{File: parts[0], Line: line, Col: col, Msg: strings.TrimSpace(parts[3])}
			}
		}
	} else if strings.HasPrefix(msg, name+": ") {
		e.Msg = strings.TrimPrefix(msg, name+": ")
	}
	return ErrorList{e}
}

// normalize replaces nil lists with empty ones so the printed manifest
// always shows [] rather than null.
func normalize(p *model.Project) {
	for _, l := range []*[]string{&p.CUDA.Archs, &p.CUDA.Defines, &p.ROCm.Archs, &p.ROCm.Defines} {
		if *l == nil {
			*l = []string{}
		}
	}
	for _, t := range p.Targets {
		for _, l := range []*[]string{&t.Srcs, &t.Hdrs, &t.Includes, &t.Defines, &t.Deps, &t.CUDAFlags, &t.HIPFlags, &t.CXXFlags, &t.Link} {
			if *l == nil {
				*l = []string{}
			}
		}
	}
}
