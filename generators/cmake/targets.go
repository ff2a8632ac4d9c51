package cmake

import (
	"bytes"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/hipgen/hipgen/internal/lazyre"
	"github.com/hipgen/hipgen/model"
	"github.com/hipgen/hipgen/sources"
)

// cmakeKinds reports the target kinds CMake builds; Python and Torch
// extensions belong to setup.py. (A switch: a map literal is built at
// every start.)
func cmakeKinds(k model.Kind) bool {
	switch k {
	case model.KindLibrary, model.KindBinary, model.KindTest:
		return true
	}
	return false
}

// targetFile renders <name>.cmake: the project call, one translation rule
// per file and one hipgen_add_target per target.
func targetFile(p *model.Project, dir string, read func(string) ([]byte, error)) ([]byte, error) {
	rules, err := translationRules(p, read)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString(headerComment)
	fmt.Fprintf(&b, "# The targets of %s, from %s. Add to a CMakeLists.txt:\n", p.Name, manifestName(p))
	fmt.Fprintf(&b, "#   include(%s)\n", path.Join(dir, TargetFileName(p)))
	b.WriteString("# and configure with -DHIPGEN_GPU_BACKEND=CUDA or HIP (default AUTO).\n")
	b.WriteString("include_guard(GLOBAL)\n")
	fmt.Fprintf(&b, "include(\"${CMAKE_CURRENT_LIST_DIR}/%s\")\n\n", FunctionsFile)

	call(&b, "hipgen_project", []string{p.Name}, []group{
		{"ROOT", []string{rootFrom(dir)}},
		{"TRANSLATE_OUT", []string{p.Translate.Out}},
		{"CUDA_ARCHS", cudaArchs(p.CUDA.Archs)},
		{"ROCM_ARCHS", p.ROCm.Archs},
		{"CUDA_DEFINES", p.CUDA.Defines},
		{"ROCM_DEFINES", p.ROCm.Defines},
	})
	if len(rules) > 0 {
		b.WriteString("\n# One translation rule per file, used by the HIP backend. A source's rule\n")
		b.WriteString("# also waits for the translated headers it includes.\n")
	}
	for _, r := range rules {
		call(&b, "hipgen_translate", []string{p.Name, r.file}, []group{
			{"OUTPUT", []string{r.output}},
			{"HEADERS", r.headers},
		})
	}
	for _, t := range p.Targets {
		b.WriteString("\n")
		if !cmakeKinds(t.Kind) {
			fmt.Fprintf(&b, "# %s (%s) is built by setup.py, not CMake.\n", t.Name, t.Kind)
			continue
		}
		call(&b, "hipgen_add_target", []string{p.Name, t.Name}, targetGroups(p, t))
	}
	fmt.Fprintf(&b, "\nhipgen_finish(%s)\n", cmakeArg(p.Name))
	return b.Bytes(), nil
}

func manifestName(p *model.Project) string {
	if p.ManifestFile != "" {
		return p.ManifestFile
	}
	return "hipgen.jsonnet"
}

// rootFrom is the project root as CMake sees it from the generated
// directory: relative, so the tree can move.
func rootFrom(dir string) string {
	n := strings.Count(dir, "/") + 1
	return "${CMAKE_CURRENT_LIST_DIR}" + strings.Repeat("/..", n)
}

// cudaArchs turns canonical manifest spellings (sm_80, sm_90a, compute_80)
// into CMake's (80, 90a, 80-virtual).
func cudaArchs(archs []string) []string {
	var out []string
	for _, a := range archs {
		switch {
		case strings.HasPrefix(a, "sm_"):
			out = append(out, strings.TrimPrefix(a, "sm_"))
		case strings.HasPrefix(a, "compute_"):
			out = append(out, strings.TrimPrefix(a, "compute_")+"-virtual")
		default:
			out = append(out, a)
		}
	}
	return out
}

func targetGroups(p *model.Project, t *model.Target) []group {
	out := p.Translate.Out
	hip := func(files []string) []string {
		var r []string
		for _, f := range files {
			r = append(r, path.Join(out, sources.OutputPath(f)))
		}
		return r
	}
	var hipIncs, installHdrs []string
	for _, inc := range t.Includes {
		hipIncs = append(hipIncs, path.Join(out, inc))
	}
	if t.Kind == model.KindLibrary {
		for _, h := range t.Hdrs {
			installHdrs = append(installHdrs, installPath(h, t.Includes))
		}
	}
	return []group{
		{"KIND", []string{string(t.Kind)}},
		{"SRCS", t.Srcs},
		{"HIP_SRCS", hip(t.Srcs)},
		{"HDRS", t.Hdrs},
		{"HIP_HDRS", hip(t.Hdrs)},
		{"INSTALL_HDRS", installHdrs},
		{"INCLUDES", t.Includes},
		{"HIP_INCLUDES", hipIncs},
		{"DEFINES", t.Defines},
		{"DEPS", t.Deps},
		{"CUDA_FLAGS", t.CUDAFlags},
		{"HIP_FLAGS", t.HIPFlags},
		{"CXX_FLAGS", t.CXXFlags},
		{"LINK", model.LinkNames(t.Link, false)},
		{"HIP_LINK", model.LinkNames(t.Link, true)},
	}
}

// installPath is where header h goes under the installed include
// directory: relative to the first include directory holding it, so
// consumers write the same #include as the library's own sources.
func installPath(h string, includes []string) string {
	for _, inc := range includes {
		if inc == "." {
			return h
		}
		if rel, ok := strings.CutPrefix(h, strings.TrimSuffix(inc, "/")+"/"); ok {
			return rel
		}
	}
	return h
}

// rule is one file's translation.
type rule struct {
	file    string
	output  string
	headers []string // translated headers the file includes, directly or not
}

// translationRules lists every file the HIP build needs translated: the
// sources and headers of CMake targets, and every project-local header
// they include, each once, sorted by path.
func translationRules(p *model.Project, read func(string) ([]byte, error)) ([]rule, error) {
	incDirs := map[string][]string{} // file -> include dirs of the first target holding it
	var queue []string
	for _, t := range p.Targets {
		if !cmakeKinds(t.Kind) {
			continue
		}
		dirs := slices.Clone(t.Includes)
		for _, d := range p.DepsClosure(t) {
			dirs = append(dirs, d.Includes...)
		}
		for _, f := range slices.Concat(t.Srcs, t.Hdrs) {
			if _, ok := incDirs[f]; !ok {
				incDirs[f] = dirs
				queue = append(queue, f)
			}
		}
	}
	closures := map[string][]string{}
	for len(queue) > 0 {
		f := queue[0]
		queue = queue[1:]
		var hdrs []string
		if read != nil {
			var err error
			if hdrs, err = sources.IncludeClosure(read, f, incDirs[f]); err != nil {
				return nil, err
			}
		}
		closures[f] = hdrs
		for _, h := range hdrs {
			if _, ok := incDirs[h]; !ok {
				incDirs[h] = incDirs[f]
				queue = append(queue, h)
			}
		}
	}
	var rules []rule
	for f, hdrs := range closures {
		r := rule{file: f, output: path.Join(p.Translate.Out, sources.OutputPath(f))}
		for _, h := range hdrs {
			r.headers = append(r.headers, path.Join(p.Translate.Out, sources.OutputPath(h)))
		}
		rules = append(rules, r)
	}
	slices.SortFunc(rules, func(a, b rule) int { return strings.Compare(a.file, b.file) })
	return rules, nil
}

// group is a keyword and its values in a CMake call.
type group struct {
	keyword string
	values  []string
}

// call writes name(args KEYWORD values...), one keyword per line, leaving
// out empty groups.
func call(b *bytes.Buffer, name string, args []string, groups []group) {
	b.WriteString(name + "(")
	for i, a := range args {
		if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString(cmakeArg(a))
	}
	for _, g := range groups {
		if len(g.values) == 0 {
			continue
		}
		line := "\n  " + g.keyword
		for _, v := range g.values {
			arg := cmakeArg(v)
			if len(line)+1+len(arg) > 80 && line != "\n  "+g.keyword {
				b.WriteString(line)
				line = "\n   "
			}
			line += " " + arg
		}
		b.WriteString(line)
	}
	b.WriteString(")\n")
}

var bareArg = lazyre.New(`^[A-Za-z0-9_./+:=,@%-]+$`)

// cmakeArg quotes s as one CMake argument. ${CMAKE_CURRENT_LIST_DIR} in
// the root path is the one reference meant to expand.
func cmakeArg(s string) string {
	if bareArg.Get().MatchString(s) {
		return s
	}
	if strings.HasPrefix(s, "${CMAKE_CURRENT_LIST_DIR}") && bareArg.Get().MatchString(strings.TrimPrefix(s, "${CMAKE_CURRENT_LIST_DIR}")) {
		return `"` + s + `"`
	}
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, `$`, `\$`, `;`, `\;`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}
