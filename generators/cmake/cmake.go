// Package cmake generates CMake files that build a project's targets with
// nvcc (the CUDA backend, from the original .cu sources) or hipcc (the HIP
// backend, from files hipgen translates at build time, one rule per file).
// It writes a fixed module of functions (HipgenFunctions.cmake,
// HipgenTargets.cmake, hipcc-launch.sh), one <name>.cmake that defines the
// manifest's targets and, on request, a top-level CMakeLists.txt.
//
// Like every generator it is a pure function of the model and the project's
// sources (read through Options.ReadFile): it never writes files, runs
// tools or reads the environment. Architecture detection, backend choice and
// translation happen when CMake runs, in the generated module.
package cmake

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/hipgen/hipgen/generators"
	"github.com/hipgen/hipgen/model"
)

// The module files are static: every project gets the same bytes, so a
// diff of generated trees shows only what the manifest changed.
var (
	//go:embed HipgenFunctions.cmake
	functionsModule []byte
	//go:embed HipgenTargets.cmake
	targetsModule []byte
	//go:embed hipcc-launch.sh
	launcherScript []byte
)

// Names of the files written under Project.CMake.Dir.
const (
	FunctionsFile = "HipgenFunctions.cmake"
	TargetsModule = "HipgenTargets.cmake"
	LauncherFile  = "hipcc-launch.sh"
	// TopLevelFile is written only with Options.Standalone, and only when
	// the project has none or hipgen wrote it.
	TopLevelFile = "CMakeLists.txt"
)

// headerComment is the first line of every generated CMake file.
const headerComment = "# " + generators.GeneratedHeader + "\n"

// Generator is the CMake generator.
type Generator struct{}

var _ generators.Generator = (*Generator)(nil)

// New returns the CMake generator.
func New() *Generator { return &Generator{} }

// Name is the word after 'hipgen generate'.
func (*Generator) Name() string { return "cmake" }

// ErrNoDir is returned when the model carries no CMake directory.
var ErrNoDir = errors.New("cmake.dir is empty")

// Generate returns the module files, the target file and, with
// opts.Standalone, a top-level CMakeLists.txt, in that order.
func (*Generator) Generate(p *model.Project, opts generators.Options) ([]generators.File, error) {
	dir := path.Clean(p.CMake.Dir)
	if p.CMake.Dir == "" {
		return nil, ErrNoDir
	}
	if dir == "." || strings.HasPrefix(dir, "../") || dir == ".." || path.IsAbs(dir) {
		return nil, fmt.Errorf("cmake.dir %q must be a directory inside the project", p.CMake.Dir)
	}
	targets, err := targetFile(p, dir, opts.ReadFile)
	if err != nil {
		return nil, err
	}
	files := []generators.File{
		{Path: path.Join(dir, FunctionsFile), Content: functionsModule},
		{Path: path.Join(dir, TargetsModule), Content: targetsModule},
		{Path: path.Join(dir, LauncherFile), Content: launcherScript},
		{Path: path.Join(dir, TargetFileName(p)), Content: targets},
	}
	if opts.Standalone {
		write, err := ownsTopLevel(opts.ReadFile)
		if err != nil {
			return nil, err
		}
		if write {
			files = append(files, generators.File{Path: TopLevelFile, Content: topLevel(p, dir)})
		}
	}
	return files, nil
}

// TargetFileName is the file a user's CMakeLists.txt includes.
func TargetFileName(p *model.Project) string { return p.Name + ".cmake" }

// ownsTopLevel reports whether CMakeLists.txt may be (re)written: it does
// not exist, or hipgen wrote it. A user's own file is left alone.
func ownsTopLevel(read func(string) ([]byte, error)) (bool, error) {
	if read == nil {
		return true, nil
	}
	data, err := read(TopLevelFile)
	switch {
	case err == nil:
		first, _, _ := bytes.Cut(data, []byte("\n"))
		return bytes.Contains(first, []byte(generators.GeneratedHeader)), nil
	case errors.Is(err, fs.ErrNotExist):
		return true, nil
	default:
		return false, err
	}
}

// topLevel is the standalone CMakeLists.txt: a project that only includes
// the target file, which is what a user adds to an existing one.
func topLevel(p *model.Project, dir string) []byte {
	var b bytes.Buffer
	b.WriteString(headerComment)
	b.WriteString("# Standalone build of " + p.Name + ". To build these targets from your own\n")
	b.WriteString("# CMakeLists.txt instead, remove this file and add the include() line there.\n")
	b.WriteString("cmake_minimum_required(VERSION 3.21)\n")
	fmt.Fprintf(&b, "project(%s LANGUAGES CXX)\n\n", cmakeArg(p.Name))
	fmt.Fprintf(&b, "include(%s)\n", cmakeArg(path.Join(dir, TargetFileName(p))))
	return b.Bytes()
}
