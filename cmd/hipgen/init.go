package main

import (
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hipgen/hipgen/archdetect"

	"github.com/hipgen/hipgen/builder"
	"github.com/hipgen/hipgen/internal/lazyre"
	"github.com/hipgen/hipgen/manifest"
)

var initCommand = &command{
	name:    "init",
	summary: "write a starter hipgen.jsonnet from the CUDA files found",
	usage:   "init [--force] [--name NAME]",
	long: `
Scans the project for .cu and .cuh files and writes a starter hipgen.jsonnet:
one library target with every .cu file that has no main(), and one binary
(or test, when its path mentions "test") per .cu file that has a main(),
each depending on the library. Directories holding .cuh headers become
include directories, and so does each directory that an #include of a file
the sources reach must be looked up from to find a file of the project (src
for #include <lib/util.hxx> naming src/lib/util.hxx). Each CUDAExtension
that a setup.py declares with literal name= and sources= becomes a
torch_extension target with those sources (its .cpp bindings included),
which the library then leaves out. A program gets the C++ source beside
a header it includes that shares the header's name (graph.cxx for
graph.hxx), and the CUDA libraries whose headers it reaches to link
(cublas for cublas_v2.h, curand for curand.h, ...). The nvcc flags that
such code needs to compile at all (--expt-extended-lambda or
--extended-lambda, --expt-relaxed-constexpr), where the project's CMake,
setup.py or make files give them, become every target's cuda_flags. The
manifest is validated before it is written; an existing hipgen.jsonnet is
left alone unless --force is given.
`,
	flags: func(fs *flag.FlagSet) func(e *env, args []string) int {
		force := fs.Bool("force", false, "replace an existing hipgen.jsonnet")
		name := fs.String("name", "", "project `name` (default: the directory's name)")
		return func(e *env, args []string) int {
			if len(args) != 0 {
				return e.errorf(exitUsage, "init: takes no arguments")
			}
			return runInit(e, *force, *name)
		}
	},
}

var mainRe = lazyre.New(`(?m)^\s*(int|auto)\s+main\s*\(`)

// skipDirs reports the directories never scanned: VCS data, build
// outputs, hipgen's own trees. (A switch: a map literal is built at every
// start.)
func skipDirs(name string) bool {
	switch name {
	case ".git", ".hg", ".svn", "build", "node_modules",
		"hip", "cmake-build-debug", "cmake-build-release", "__pycache__":
		return true
	}
	return false
}

func runInit(e *env, force bool, name string) int {
	target := filepath.Join(e.Dir, manifest.FileName)
	if _, err := os.Stat(target); err == nil && !force {
		return e.errorf(exitUsage, "init: %s already exists; use --force to replace it", manifest.FileName)
	}
	var cus, cuhs, others, buildFiles []string
	err := filepath.WalkDir(e.Dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(e.Dir, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (skipDirs(d.Name()) || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, "CMakeCache.txt")); err == nil {
				return filepath.SkipDir // a CMake build directory
			}
			return nil
		}
		switch path.Ext(rel) {
		case ".cu":
			cus = append(cus, rel)
		case ".cuh":
			cuhs = append(cuhs, rel)
		default:
			switch {
			case cxxFile(rel):
				others = append(others, rel)
			case buildFile(rel):
				buildFiles = append(buildFiles, rel)
			}
		}
		return nil
	})
	if err != nil {
		return e.errorf(exitUsage, "init: %v", err)
	}
	if len(cus) == 0 {
		return e.errorf(exitUsage, "init: no .cu files found under %s", e.Dir)
	}
	if name == "" {
		name = sanitizeName(filepath.Base(e.Dir))
	}
	known := map[string]bool{}
	for _, list := range [][]string{cus, cuhs, others} {
		for _, f := range list {
			known[f] = true
		}
	}
	files := newFileReader(e.Dir)
	exts, err := torchExtensionsIn(files, buildFiles, func(p string) bool { return known[p] })
	if err != nil {
		return e.errorf(exitUsage, "init: %v", err)
	}
	inExt := map[string]bool{}
	for _, x := range exts {
		for _, f := range x.sources {
			inExt[f] = true
		}
	}
	var lib, mains []string
	for _, f := range cus {
		if inExt[f] {
			continue // an extension's
		}
		data, err := files.read(f)
		if err != nil {
			return e.errorf(exitUsage, "init: %v", err)
		}
		if mainRe.Get().Match(data) {
			mains = append(mains, f)
		} else {
			lib = append(lib, f)
		}
	}
	incs, err := includeDirsFor(files, cus, cuhs, others)
	if err != nil {
		return e.errorf(exitUsage, "init: %v", err)
	}
	flags, err := nvccFlagsIn(files, buildFiles)
	if err != nil {
		return e.errorf(exitUsage, "init: %v", err)
	}
	switches, err := hipSwitchesIn(files, buildFiles, slices.Concat(cus, cuhs, others), len(exts) > 0)
	if err != nil {
		return e.errorf(exitUsage, "init: %v", err)
	}
	companions, links := map[string][]string{}, map[string][]string{}
	for _, m := range mains {
		r, err := reached(files, []string{m}, incs)
		if err == nil {
			companions[m], err = companionSources(files, r.headers, known)
		}
		if err != nil {
			return e.errorf(exitUsage, "init: %v", err)
		}
		links[m] = r.libs
	}
	libReach, err := reached(files, lib, incs)
	if err != nil {
		return e.errorf(exitUsage, "init: %v", err)
	}
	links[""] = libReach.libs
	h := archdetect.RealHost()
	h.Getenv = e.Getenv
	src := starter{
		name: name, lib: lib, hdrs: cuhs, incs: incs, mains: mains, companions: companions, links: links, exts: exts, flags: flags, switches: switches,
		cuda: starterArchs(h, archdetect.CUDA), rocm: starterArchs(h, archdetect.ROCm),
	}.manifest()
	if _, err := manifest.LoadSource(e.Dir, manifest.FileName, src); err != nil {
		return e.errorf(exitUsage, "init: the starter manifest does not validate, nothing written:\n%v", err)
	}
	if _, err := builder.WriteGenerated(e.Dir, manifest.FileName, src, builder.WriteOptions{AllowOverwriteForeign: true}); err != nil {
		return e.errorf(exitUsage, "init: %v", err)
	}
	extNote := ""
	if len(exts) > 0 {
		extNote = fmt.Sprintf(", %d PyTorch extension", len(exts))
		if len(exts) > 1 {
			extNote += "s"
		}
	}
	fmt.Fprintf(e.Stdout, "wrote %s: %d library sources, %d headers, %d programs%s\n", manifest.FileName, len(lib), len(cuhs), len(mains), extNote)
	return exitOK
}

func sanitizeName(s string) string {
	var b strings.Builder
	for i, r := range s {
		ok := r == '_' || r == '-' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (i > 0 && r >= '0' && r <= '9')
		if ok {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "project"
	}
	return b.String()
}

// starterDefaults are the architectures a starter manifest names: the
// data-center GPUs of the last two generations.
var starterDefaults = map[archdetect.Backend][]string{
	archdetect.CUDA: {"sm_80", "sm_90"},
	archdetect.ROCm: {"gfx90a", "gfx942"},
}

// archLine is one backend's line of the starter manifest: its defaults
// that the installed compiler builds (all of them when there is none to
// ask), and a comment naming those it cannot, so that the first build
// does not fail on them.
type archLine struct {
	archs   []string
	comment string
}

func starterArchs(h archdetect.Host, b archdetect.Backend) archLine {
	want := starterDefaults[b]
	tc, err := archdetect.FindToolchain(h, b)
	if err != nil {
		return archLine{archs: want}
	}
	var ok, left []string
	for _, a := range want {
		if archdetect.CheckToolchain(h, b, []string{a}) == nil {
			ok = append(ok, a)
		} else {
			left = append(left, a)
		}
	}
	if len(ok) == 0 {
		return archLine{archs: want, comment: fmt.Sprintf("the installed %s builds none of these; install a newer toolkit or choose from: %s", tc, strings.Join(tc.Archs, " "))}
	}
	if len(left) == 0 {
		return archLine{archs: ok}
	}
	return archLine{archs: ok, comment: fmt.Sprintf("%s left out: the installed %s does not build for it", strings.Join(left, ", "), tc)}
}

func (l archLine) write(b *bytes.Buffer, key string) {
	if l.comment != "" {
		fmt.Fprintf(b, "  // %s.\n", l.comment)
	}
	fmt.Fprintf(b, "  %s: { archs: [%s] },\n", key, strings.Join(quoteAll(l.archs), ", "))
}

// starter is what a starter manifest is written from.
type starter struct {
	name                   string
	lib, hdrs, incs, mains []string            // library sources, .cuh headers, include directories, programs
	companions             map[string][]string // each program's C++ sources beside its headers
	links                  map[string][]string // libraries each program ("" the library) must link
	exts                   []torchExtension
	flags                  nvccFlags
	switches               hipSwitches // rocm.defines
	cuda, rocm             archLine
}

// manifest returns the starter manifest's text.
func (st starter) manifest() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "// hipgen manifest, written by 'hipgen init'. Edit freely: see the README's\n// manifest reference. 'hipgen manifest' prints what this evaluates to.\n{\n")
	fmt.Fprintf(&b, "  name: %s,\n", quote(st.name))
	fmt.Fprintf(&b, "  // Used when no architecture is set (flags, environment) or detected.\n")
	st.cuda.write(&b, "cuda")
	st.switches.write(&b, st.rocm)
	fmt.Fprintf(&b, "  translate: { out: 'hip' },\n")
	fmt.Fprintf(&b, "  targets: [\n")
	libName := sanitizeTarget(st.name)
	taken := map[string]bool{}
	if len(st.lib) > 0 || len(st.hdrs) > 0 {
		taken[libName] = true
		fmt.Fprintf(&b, "    {\n      name: %s,\n      kind: 'library',\n", quote(libName))
		writeList(&b, "srcs", st.lib)
		writeList(&b, "hdrs", st.hdrs)
		writeList(&b, "includes", st.incs)
		writeList(&b, "link", st.links[""])
		st.flags.write(&b)
		fmt.Fprintf(&b, "    },\n")
	}
	// claim returns base, or base_2, base_3, ... where a target has it.
	claim := func(base string) string {
		tn := base
		for i := 2; taken[tn]; i++ {
			tn = fmt.Sprintf("%s_%d", base, i)
		}
		taken[tn] = true
		return tn
	}
	for _, x := range st.exts {
		x.write(&b, claim(sanitizeTarget(x.module)), st.incs, st.flags)
	}
	for _, m := range st.mains {
		tn := claim(sanitizeTarget(strings.TrimSuffix(path.Base(m), ".cu")))
		kind := "binary"
		if strings.Contains(strings.ToLower(m), "test") {
			kind = "test"
		}
		fmt.Fprintf(&b, "    {\n      name: %s,\n      kind: '%s',\n", quote(tn), kind)
		writeList(&b, "srcs", append([]string{m}, st.companions[m]...))
		if len(st.lib) > 0 || len(st.hdrs) > 0 {
			writeList(&b, "deps", []string{libName})
		} else if len(st.incs) > 0 {
			writeList(&b, "includes", st.incs)
		}
		writeList(&b, "link", st.links[m])
		st.flags.write(&b)
		fmt.Fprintf(&b, "    },\n")
	}
	fmt.Fprintf(&b, "  ],\n}\n")
	return b.Bytes()
}

func sanitizeTarget(s string) string {
	s = sanitizeName(s)
	return strings.ReplaceAll(s, ".", "_")
}

func writeList(b *bytes.Buffer, field string, items []string) {
	if len(items) == 0 {
		return
	}
	if len(items) == 1 {
		fmt.Fprintf(b, "      %s: [%s],\n", field, quote(items[0]))
		return
	}
	fmt.Fprintf(b, "      %s: [\n", field)
	for _, it := range items {
		fmt.Fprintf(b, "        %s,\n", quote(it))
	}
	fmt.Fprintf(b, "      ],\n")
}

// quote writes a Jsonnet single-quoted string.
func quote(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	s = strings.ReplaceAll(s, `'`, `\'`)
	return "'" + s + "'"
}
