package main

import (
	"bytes"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/hipgen/hipgen/internal/lazyre"
	"github.com/hipgen/hipgen/sources"
)

// hipSwitches are the project's own switches of its HIP code (faiss's
// USE_AMD_ROCM) that a starter manifest's rocm.defines names, and where
// each was found.
type hipSwitches struct {
	names []string
	why   []string // "NAME, NAME: where they were found"
}

var (
	// buildDefineRe finds -DNAME in build files: CMake's add_definitions
	// and flag lists, make's CPPFLAGS, setup.py's extra_compile_args.
	buildDefineRe = lazyre.New(`(?:^|[\s"'(\[;,=])-D\s?([A-Za-z_][A-Za-z0-9_]*)`)
	// cmakeDefinitionsRe finds CMake's lists of definitions without -D.
	cmakeDefinitionsRe = lazyre.New(`(?i)\b(?:add|target)_compile_definitions\s*\(([^)]*)\)`)
	// defineMacrosRe finds setuptools' define_macros lists of pairs.
	defineMacrosRe = lazyre.New(`\bdefine_macros\s*=\s*\[([^\]]*)\]`)
	identRe        = lazyre.New(`[A-Za-z_][A-Za-z0-9_]*`)
	quotedIdentRe  = lazyre.New(`["']([A-Za-z_][A-Za-z0-9_]*)["']`)
	// conditionLineRe finds the conditions of #if, #ifdef, #ifndef and
	// #elif lines.
	conditionLineRe = lazyre.New(`(?m)^[ \t]*#[ \t]*(?:if|ifdef|ifndef|elif)\b([^\n]*)`)
)

// hipSwitchesIn returns the macros named like a project's HIP switch
// (sources.HIPSwitch) that the build files (slash paths from the reader's
// root) define and the sources test in a conditional directive, sorted;
// and USE_ROCM when the project has PyTorch extensions and the sources
// test it (PyTorch's ROCm builds define it). Files that hipgen generated
// are not read.
func hipSwitchesIn(reader *fileReader, buildFiles, srcs []string, torch bool) (hipSwitches, error) {
	where := map[string][]string{}
	err := reader.buildFiles(buildFiles, func(rel string, data []byte) {
		for _, name := range definedIn(data, path.Base(rel) == "setup.py") {
			if sources.HIPSwitch(name) && !slices.Contains(where[name], rel) {
				where[name] = append(where[name], rel)
			}
		}
	})
	if err != nil {
		return hipSwitches{}, err
	}
	if torch {
		where["USE_ROCM"] = append(where["USE_ROCM"], "PyTorch's ROCm builds")
	}
	if len(where) == 0 {
		return hipSwitches{}, nil
	}
	tested := map[string]bool{}
	for _, rel := range srcs {
		data, err := reader.read(rel)
		if err != nil {
			return hipSwitches{}, err
		}
		for _, m := range conditionLineRe.Get().FindAllSubmatch(data, -1) {
			for _, w := range identRe.Get().FindAll(m[1], -1) {
				if _, ok := where[string(w)]; ok {
					tested[string(w)] = true
				}
			}
		}
	}
	// The names are told by where they were found, those found in the
	// same places together.
	var s hipSwitches
	var places []string
	byPlace := map[string][]string{}
	for _, name := range slices.Sorted(maps.Keys(tested)) {
		s.names = append(s.names, name)
		p := strings.Join(where[name], ", ")
		if byPlace[p] == nil {
			places = append(places, p)
		}
		byPlace[p] = append(byPlace[p], name)
	}
	for _, p := range places {
		s.why = append(s.why, strings.Join(byPlace[p], ", ")+": "+p)
	}
	return s, nil
}

// definedIn returns the macro names a build file defines: -DNAME anywhere,
// the lists of CMake's add_compile_definitions and
// target_compile_definitions, and (setup.py) define_macros' names.
func definedIn(data []byte, setupPy bool) []string {
	var out []string
	for _, m := range buildDefineRe.Get().FindAllSubmatch(data, -1) {
		out = append(out, string(m[1]))
	}
	for _, m := range cmakeDefinitionsRe.Get().FindAllSubmatch(data, -1) {
		for _, w := range bytes.Fields(m[1]) {
			name, _, _ := bytes.Cut(w, []byte("="))
			if id := identRe.Get().Find(name); len(id) == len(name) && len(id) > 0 {
				out = append(out, string(id))
			}
		}
	}
	if setupPy {
		for _, m := range defineMacrosRe.Get().FindAllSubmatch(data, -1) {
			for _, q := range quotedIdentRe.Get().FindAllSubmatch(m[1], -1) {
				out = append(out, string(q[1]))
			}
		}
	}
	return out
}

// write writes the rocm line of a starter manifest with the switches as
// its defines, and where they were found.
func (s hipSwitches) write(b *bytes.Buffer, rocm archLine) {
	if len(s.names) == 0 {
		rocm.write(b, "rocm")
		return
	}
	if rocm.comment != "" {
		fmt.Fprintf(b, "  // %s.\n", rocm.comment)
	}
	fmt.Fprintf(b, "  // HIP builds define the switches of the project's own HIP code (%s).\n", strings.Join(s.why, "; "))
	fmt.Fprintf(b, "  rocm: { archs: [%s], defines: [%s] },\n", strings.Join(quoteAll(rocm.archs), ", "), strings.Join(quoteAll(s.names), ", "))
}

// quoteAll quotes each string (see quote).
func quoteAll(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = quote(s)
	}
	return out
}
