package cmake_test

// Real builds: every example is generated, configured with CMake, built
// with nvcc (CUDA) and hipcc (HIP), tested with ctest, rebuilt after an
// edit, installed and used by a downstream find_package() project. These
// need cmake, nvcc and hipcc; under CI=true a missing tool fails the test,
// elsewhere it is skipped with the tool's name. -short skips them all.

import (
	"fmt"
	"github.com/hipgen/hipgen/internal/testtool"
	"github.com/hipgen/hipgen/manifest/jsonnetvm"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/hipgen/hipgen/builder"
	"github.com/hipgen/hipgen/manifest"
	"github.com/hipgen/hipgen/model"
)

// The architectures the issue asks every example to be built for.
const (
	testCUDAArchs = "80;90"
	testROCmArchs = "gfx1030;gfx90a"
)

// requireTools skips (or, under CI=true, fails) unless every tool is on PATH.
func requireTools(t *testing.T, tools ...string) {
	t.Helper()
	if testing.Short() {
		t.Skip("real CMake builds are skipped with -short")
	}
	for _, tool := range tools {
		testtool.Require(t, tool)
	}
}

var (
	hipgenOnce sync.Once
	hipgenPath string
	hipgenErr  error
	hipgenDir  string
)

func TestMain(m *testing.M) {
	jsonnetCleanup := testtool.JsonnetHelper(jsonnetvm.Main)
	cleanup := testtool.PrivateTMPDIR()
	code := m.Run()
	cleanup()
	jsonnetCleanup()
	if hipgenDir != "" {
		os.RemoveAll(hipgenDir)
	}
	os.Exit(code)
}

// hipgenBinary builds cmd/hipgen once; the HIP build's translation rules
// run it.
func hipgenBinary(t *testing.T) string {
	t.Helper()
	hipgenOnce.Do(func() {
		hipgenDir, hipgenErr = os.MkdirTemp("", "hipgen-cmake-test")
		if hipgenErr != nil {
			return
		}
		hipgenPath = filepath.Join(hipgenDir, "hipgen")
		// hipgen-jsonnet beside it evaluates the manifest.
		out, err := exec.Command("go", "build", "-o", hipgenDir, "../../cmd/hipgen", "../../cmd/hipgen-jsonnet").CombinedOutput()
		if err != nil {
			hipgenErr = fmt.Errorf("go build ./cmd/hipgen ./cmd/hipgen-jsonnet: %v\n%s", err, out)
		}
	})
	if hipgenErr != nil {
		t.Fatal(hipgenErr)
	}
	return hipgenPath
}

// examples lists examples/*/ that have a manifest.
func examples(t *testing.T) []string {
	t.Helper()
	ms, _ := filepath.Glob(filepath.Join("..", "..", "examples", "*", manifest.FileName))
	if len(ms) == 0 {
		t.Fatal("no examples/*/hipgen.jsonnet found")
	}
	var names []string
	for _, m := range ms {
		names = append(names, filepath.Base(filepath.Dir(m)))
	}
	return names
}

// copyProject copies examples/<name> (without any translated tree or
// generated CMake) to a temporary directory and writes the generated CMake
// files there, standalone, as 'hipgen generate --standalone cmake' would.
func copyProject(t *testing.T, name string) (string, *model.Project) {
	t.Helper()
	return copyEditedProject(t, name, nil)
}

// copyEditedProject is copyProject with edit run on the copy before the
// CMake files are generated.
func copyEditedProject(t *testing.T, name string, edit func(dir string)) (string, *model.Project) {
	t.Helper()
	src, _ := filepath.Abs(filepath.Join("..", "..", "examples", name))
	dst := filepath.Join(t.TempDir(), name)
	if out, err := exec.Command("cp", "-r", src, dst).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v\n%s", err, out)
	}
	if edit != nil {
		edit(dst)
	}
	p, files := generate(t, dst, true)
	os.RemoveAll(filepath.Join(dst, filepath.FromSlash(p.Translate.Out)))
	for _, f := range files {
		if _, err := builder.WriteGenerated(dst, f.Path, f.Content, builder.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	return dst, p
}

// testEnv is the environment for CMake runs: no inherited architecture
// settings, and HIP_PLATFORM=amd for Debian's hipcc.
func testEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "PYTORCH_ROCM_ARCH", "HIPGEN_ROCM_ARCHS", "HIPGEN_CUDA_ARCHS", "TORCH_CUDA_ARCH_LIST",
			"CUDAARCHS", "GPU_TARGETS", "CMAKE_HIP_ARCHITECTURES", "CMAKE_GENERATOR":
			continue
		}
		env = append(env, kv)
	}
	if _, err := exec.LookPath("ninja"); err == nil {
		env = append(env, "CMAKE_GENERATOR=Ninja")
	}
	return append(append(env, "HIP_PLATFORM=amd"), extra...)
}

// runIn runs a command in dir and returns its combined output, failing the
// test (with the output) when it fails.
func runIn(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	out, err := tryIn(dir, env, name, args...)
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return out
}

func tryIn(dir string, env []string, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

var (
	buildLine     = regexp.MustCompile(`Building (CUDA|CXX|HIP) object (\S+)`)
	translateLine = regexp.MustCompile(`hipgen: translating (\S+)`)
)

// matches returns the first group of every match of re in out.
func matches(re *regexp.Regexp, out string, group int) []string {
	var r []string
	for _, m := range re.FindAllStringSubmatch(out, -1) {
		r = append(r, m[group])
	}
	return r
}

// backendCase is what differs between the CUDA and HIP builds.
type backendCase struct {
	backend  string
	archLine string // the configure message naming the architectures
	args     func(t *testing.T, launcher []string) []string
	env      []string // extra environment for every CMake run
	// configLine is one more message the configure output must hold.
	configLine string
	objExt     string // object name suffix of an edited .cu file's compile
	// archMarkers are strings each GPU object must contain, one per arch.
	archMarkers []string
}

// checkDeviceCode: every object of a library target (whose sources hold
// the kernels) has device code for each requested arch, so the sources
// really went through nvcc or hipcc, not the host compiler.
func checkDeviceCode(t *testing.T, dir string, objects []string, bc backendCase, p *model.Project) {
	t.Helper()
	checked := 0
	for _, o := range objects {
		lib := false
		for _, tg := range p.Targets {
			lib = lib || tg.Kind == model.KindLibrary && strings.Contains(o, "/"+tg.Name+".dir/")
		}
		if !lib || !strings.HasSuffix(o, bc.objExt) {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(o)))
		if err != nil {
			t.Errorf("object %s: %v", o, err)
			continue
		}
		checked++
		for _, marker := range bc.archMarkers {
			if !strings.Contains(string(data), marker) {
				t.Errorf("object %s has no %s device code", o, marker)
			}
		}
	}
	if checked == 0 {
		t.Errorf("no library GPU object among %v", objects)
	}
}

var cudaCase = backendCase{
	archMarkers: []string{"sm_80", "sm_90"},
	backend:     "CUDA",
	archLine:    "cuda archs 80,90 (from HIPGEN_CUDA_ARCHS)",
	args: func(t *testing.T, launcher []string) []string {
		return []string{"-DHIPGEN_CUDA_ARCHS=" + testCUDAArchs, "-DCMAKE_CUDA_COMPILER_LAUNCHER=" + strings.Join(launcher, ";")}
	},
	objExt: ".cu.o",
}

var hipCase = backendCase{
	archMarkers: []string{"amdgcn-amd-amdhsa--gfx1030", "amdgcn-amd-amdhsa--gfx90a"},
	backend:     "HIP",
	archLine:    "rocm archs gfx1030,gfx90a (from HIPGEN_ROCM_ARCHS)",
	args: func(t *testing.T, launcher []string) []string {
		return []string{"-DHIPGEN_ROCM_ARCHS=" + testROCmArchs, "-DHIPGEN_TRANSLATE=BUILD",
			"-DHIPGEN_EXECUTABLE=" + hipgenBinary(t), "-DCMAKE_CXX_COMPILER_LAUNCHER=" + strings.Join(launcher, ";")}
	},
	objExt: ".hip.o",
}

// debianHIPLang is where Debian installs ROCm's hip-lang CMake package:
// under the multiarch directory, where CMake 3.21-3.27 does not look.
const debianHIPLang = "/usr/lib/x86_64-linux-gnu/cmake/hip-lang"

// hipLangCase builds through CMake's HIP language (the ROCm 5.3+ path)
// with Debian's clang. A stand-in ROCm root gives CMake the
// <root>/lib/cmake/hip-lang it expects, linked to Debian's real package;
// HIPFLAGS passes the paths Debian's hipcc would pass to clang.
func hipLangCase(t *testing.T) backendCase {
	bc := hipCase
	standinRoot := filepath.Join(t.TempDir(), "standin-rocm-root")
	if err := os.MkdirAll(filepath.Join(standinRoot, "lib", "cmake"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(debianHIPLang, filepath.Join(standinRoot, "lib", "cmake", "hip-lang")); err != nil {
		t.Fatal(err)
	}
	bc.env = []string{
		"HIPFLAGS=--rocm-path=/usr --hip-device-lib-path=/usr/lib/x86_64-linux-gnu/amdgcn/bitcode",
		"CMAKE_PREFIX_PATH=/usr/lib/x86_64-linux-gnu/cmake",
	}
	bc.configLine = "compiling HIP with CMake's HIP language (/usr/bin/clang++-15)"
	bc.args = func(t *testing.T, launcher []string) []string {
		return []string{"-DHIPGEN_ROCM_ARCHS=" + testROCmArchs, "-DHIPGEN_TRANSLATE=BUILD",
			"-DHIPGEN_EXECUTABLE=" + hipgenBinary(t), "-DHIPGEN_HIP_LANGUAGE=ON",
			"-DCMAKE_HIP_COMPILER=/usr/bin/clang++-15", "-DCMAKE_HIP_COMPILER_ROCM_ROOT=" + standinRoot,
			"-DCMAKE_HIP_COMPILER_LAUNCHER=" + strings.Join(launcher, ";")}
	}
	return bc
}

func TestBuildHIPLanguage(t *testing.T) {
	requireTools(t, "cmake", "clang++-15")
	if _, err := os.Stat(debianHIPLang); err != nil {
		if testtool.InCI() {
			t.Fatalf("%v (libamdhip64-dev provides it)", err)
		}
		t.Skipf("Debian's hip-lang package is not installed: %v", err)
	}
	bc := hipLangCase(t)
	for _, name := range examples(t) {
		t.Run(name, func(t *testing.T) { buildExample(t, name, bc) })
	}
}

func TestBuildCUDA(t *testing.T) {
	requireTools(t, "cmake", "nvcc")
	for _, name := range examples(t) {
		t.Run(name, func(t *testing.T) { buildExample(t, name, cudaCase) })
	}
}

func TestBuildHIP(t *testing.T) {
	requireTools(t, "cmake", "hipcc")
	for _, name := range examples(t) {
		t.Run(name, func(t *testing.T) { buildExample(t, name, hipCase) })
	}
}

// buildExample configures, builds and tests one example for one backend,
// then checks incremental rebuilds and installation.
func buildExample(t *testing.T, name string, bc backendCase) {
	root, p := copyProject(t, name)
	if !hasCMakeTargets(p) {
		t.Skipf("examples/%s has no library, binary or test target; setup.py builds it", name)
	}
	env := testEnv(bc.env...)
	launcherLog := filepath.Join(root, "launcher.log")
	launcherScript, _ := filepath.Abs(filepath.Join("testdata", "launcher", "record-launcher.sh"))
	launcher := []string{"sh", launcherScript, launcherLog}
	args := append([]string{"-S", ".", "-B", "out", "-DHIPGEN_GPU_BACKEND=" + bc.backend}, bc.args(t, launcher)...)
	conf := runIn(t, root, env, "cmake", args...)
	for _, want := range []string{
		"hipgen: " + p.Name + ": GPU backend " + bc.backend + " (HIPGEN_GPU_BACKEND=" + bc.backend + ")",
		"hipgen: " + p.Name + ": " + bc.archLine,
		"hipgen: " + p.Name + ": " + bc.configLine,
	} {
		if !strings.Contains(conf, want) {
			t.Errorf("configure output lacks %q:\n%s", want, conf)
		}
	}
	first := runIn(t, root, env, "cmake", "--build", "out", "-j2")
	if len(matches(buildLine, first, 2)) == 0 {
		t.Fatalf("first build compiled nothing:\n%s", first)
	}
	if log, err := os.ReadFile(launcherLog); err != nil || len(log) == 0 {
		t.Errorf("the compiler launcher was not used (%v)", err)
	}
	checkDeviceCode(t, filepath.Join(root, "out"), matches(buildLine, first, 2), bc, p)
	checkCTest(t, root, env, p, bc.backend)
	if bc.backend == "HIP" {
		checkTranslationsInBuildTree(t, root, env, p)
	}

	// A second build with no change does nothing: no rule is always stale.
	again := runIn(t, root, env, "cmake", "--build", "out", "-j2")
	if b, tr := matches(buildLine, again, 2), matches(translateLine, again, 1); len(b)+len(tr) > 0 {
		t.Errorf("no-op rebuild compiled %v and translated %v:\n%s", b, tr, again)
	}

	// Editing one .cu re-translates (HIP) and recompiles exactly that file.
	edited := firstCUSource(t, p)
	f, err := os.OpenFile(filepath.Join(root, filepath.FromSlash(edited)), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(f, "\n// edited by the rebuild test\n")
	f.Close()
	rebuilt := runIn(t, root, env, "cmake", "--build", "out", "-j2")
	compiled := matches(buildLine, rebuilt, 2)
	if len(compiled) != 1 || !strings.HasSuffix(compiled[0], strings.TrimSuffix(filepath.Base(edited), ".cu")+bc.objExt) {
		t.Errorf("after editing %s the build compiled %v, want exactly that file:\n%s", edited, compiled, rebuilt)
	}
	translated := matches(translateLine, rebuilt, 1)
	if bc.backend == "HIP" && (len(translated) != 1 || translated[0] != edited) {
		t.Errorf("after editing %s the build translated %v, want exactly that file:\n%s", edited, translated, rebuilt)
	}
	if bc.backend == "CUDA" && len(translated) != 0 {
		t.Errorf("the CUDA build translated %v", translated)
	}
	checkInstall(t, root, env, p, bc.backend)
}

// checkTranslationsInBuildTree: HIPGEN_TRANSLATE=BUILD writes the
// translated tree under the build directory and nothing into the sources,
// so 'cmake --build --target clean' cannot delete a tree the maintainer
// committed there.
func checkTranslationsInBuildTree(t *testing.T, root string, env []string, p *model.Project) {
	t.Helper()
	built := filepath.Join(root, "out", "hipgen-translated", p.Name, filepath.FromSlash(p.Translate.Out))
	hips, _ := filepath.Glob(filepath.Join(built, "*", "*.hip"))
	if len(hips) == 0 {
		t.Errorf("no translation under %s", built)
	}
	src := filepath.Join(root, filepath.FromSlash(p.Translate.Out))
	if _, err := os.Stat(src); err == nil {
		t.Errorf("the build wrote %s into the source tree", p.Translate.Out)
	}
	// A committed tree in the sources survives a clean.
	committed := filepath.Join(src, "committed.txt")
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(committed, []byte("kept\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runIn(t, root, env, "cmake", "--build", "out", "--target", "clean")
	if _, err := os.Stat(committed); err != nil {
		t.Errorf("clean touched the source tree: %v", err)
	}
	if err := os.RemoveAll(src); err != nil {
		t.Fatal(err)
	}
	runIn(t, root, env, "cmake", "--build", "out", "-j2")
}

func hasCMakeTargets(p *model.Project) bool {
	for _, tg := range p.Targets {
		switch tg.Kind {
		case model.KindLibrary, model.KindBinary, model.KindTest:
			return true
		}
	}
	return false
}

// firstCUSource is the first .cu source of the first library (else of any
// target).
func firstCUSource(t *testing.T, p *model.Project) string {
	t.Helper()
	var fallback string
	for _, tg := range p.Targets {
		for _, s := range tg.Srcs {
			if strings.HasSuffix(s, ".cu") {
				if tg.Kind == model.KindLibrary {
					return s
				}
				if fallback == "" {
					fallback = s
				}
			}
		}
	}
	if fallback == "" {
		t.Fatal("no .cu source in the project")
	}
	return fallback
}

// checkCTest runs ctest: every test target must be registered, and on a
// machine without a GPU every one must be reported skipped (exit 77).
func checkCTest(t *testing.T, root string, env []string, p *model.Project, backend string) {
	t.Helper()
	var tests []string
	for _, tg := range p.Targets {
		if tg.Kind == model.KindTest {
			tests = append(tests, tg.Name)
		}
	}
	if len(tests) == 0 {
		return
	}
	out := runIn(t, filepath.Join(root, "out"), env, "ctest", "--output-on-failure", "--no-tests=error")
	gpu := hasGPU(backend)
	for _, name := range tests {
		skipped := regexp.MustCompile(`\d+ - ` + regexp.QuoteMeta(name) + ` \(Skipped\)`).MatchString(out)
		passed := regexp.MustCompile(regexp.QuoteMeta(name) + ` \.+\s+Passed`).MatchString(out)
		switch {
		case !gpu && !skipped:
			t.Errorf("no GPU here, yet ctest did not report %s skipped:\n%s", name, out)
		case gpu && !passed:
			t.Errorf("ctest did not report %s passed on this GPU machine:\n%s", name, out)
		}
	}
}

// hasGPU reports whether this machine has a GPU the backend's test
// programs can use.
func hasGPU(backend string) bool {
	if backend == "CUDA" {
		out, err := exec.Command("nvidia-smi", "-L").Output()
		return err == nil && strings.Contains(string(out), "GPU ")
	}
	_, err := os.Stat("/dev/kfd")
	return err == nil
}

// checkInstall installs the build and, for vecadd, builds the downstream
// project in testdata against it with find_package().
func checkInstall(t *testing.T, root string, env []string, p *model.Project, backend string) {
	t.Helper()
	prefix := filepath.Join(root, "prefix")
	runIn(t, root, env, "cmake", "--install", "out", "--prefix", prefix)
	config := filepath.Join(prefix, "lib", "cmake", p.Name, p.Name+"Config.cmake")
	if _, err := os.Stat(config); err != nil {
		t.Fatalf("no package config installed: %v", err)
	}
	if p.Name != "vecadd" {
		return
	}
	ds, _ := filepath.Abs(filepath.Join("testdata", "downstream"))
	conf := runIn(t, root, env, "cmake", "-S", ds, "-B", "downstream", "-DCMAKE_PREFIX_PATH="+prefix)
	if want := "downstream: vecadd for " + backend; !strings.Contains(conf, want) {
		t.Errorf("downstream configure lacks %q:\n%s", want, conf)
	}
	runIn(t, root, env, "cmake", "--build", "downstream")
	out, err := tryIn(root, env, filepath.Join(root, "downstream", "use_vecadd"))
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if want := map[bool]int{true: 0, false: 77}[hasGPU(backend)]; code != want {
		t.Errorf("use_vecadd exited %d, want %d:\n%s", code, want, out)
	}
}

// TestIncludeIntoExistingProject: adding the one include() line to a
// user's CMakeLists.txt gives both backends, next to the user's own targets.
func TestIncludeIntoExistingProject(t *testing.T) {
	for _, bc := range []backendCase{cudaCase, hipCase} {
		t.Run(bc.backend, func(t *testing.T) {
			requireTools(t, "cmake", map[string]string{"CUDA": "nvcc", "HIP": "hipcc"}[bc.backend])
			root, p := copyProject(t, "vecadd")
			for _, f := range []string{"CMakeLists.txt", "hello.cpp"} {
				data, err := os.ReadFile(filepath.Join("testdata", "existing", f))
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(root, f), data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			env := testEnv()
			args := append([]string{"-S", ".", "-B", "out", "-DHIPGEN_GPU_BACKEND=" + bc.backend}, bc.args(t, nil)...)
			runIn(t, root, env, "cmake", args...)
			build := runIn(t, root, env, "cmake", "--build", "out", "-j2", "--target", "hello", "hello_gpu")
			checkDeviceCode(t, filepath.Join(root, "out"), matches(buildLine, build, 2), bc, p)
			for prog, want := range map[string]string{"hello": "hello\n", "hello_gpu": "hello_gpu: "} {
				out, _ := tryIn(root, env, filepath.Join(root, "out", prog))
				if !strings.HasPrefix(out, want) {
					t.Errorf("%s printed %q, want it to start with %q", prog, out, want)
				}
			}
		})
	}
}

// TestBackendDefines builds the example's library with cuda.defines and
// rocm.defines set: each backend's compiles get its own list and not the
// other's, values included (a source that stops with #error otherwise
// proves it), before the target's own defines.
func TestBackendDefines(t *testing.T) {
	for _, bc := range []backendCase{cudaCase, hipCase} {
		t.Run(bc.backend, func(t *testing.T) {
			requireTools(t, "cmake", map[string]string{"CUDA": "nvcc", "HIP": "hipcc"}[bc.backend])
			root, _ := copyEditedProject(t, "vecadd", func(dir string) {
				m := filepath.Join(dir, manifest.FileName)
				if err := os.Rename(m, filepath.Join(dir, "base.libsonnet")); err != nil {
					t.Fatal(err)
				}
				write(t, m, "(import 'base.libsonnet') + { cuda+: { defines: ['VA_CUDA_BUILD'] }, rocm+: { defines: ['VA_ROCM_BUILD=2'] } }\n")
				src := filepath.Join(dir, "csrc", "vecadd.cu")
				data, err := os.ReadFile(src)
				if err != nil {
					t.Fatal(err)
				}
				guard := "#if defined(VA_CUDA_BUILD) == defined(VA_ROCM_BUILD)\n#error \"want exactly one backend's defines\"\n#endif\n" +
					"#if defined(VA_ROCM_BUILD) && VA_ROCM_BUILD != 2\n#error \"want VA_ROCM_BUILD=2\"\n#endif\n"
				write(t, src, guard+string(data))
			})
			env := testEnv(bc.env...)
			args := append([]string{"-S", ".", "-B", "out", "-DHIPGEN_GPU_BACKEND=" + bc.backend}, bc.args(t, nil)...)
			runIn(t, root, env, "cmake", args...)
			build := runIn(t, root, env, "cmake", "--build", "out", "-j2", "--target", "vecadd", "--verbose")
			want := map[string]string{"CUDA": "-DVA_CUDA_BUILD", "HIP": "-DVA_ROCM_BUILD=2"}[bc.backend]
			if !strings.Contains(build, want) {
				t.Errorf("no compile command has %s:\n%s", want, build)
			}
		})
	}
}

// write writes a file of the test's project.
func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
