package sources

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/hipgen/hipgen/internal/testtool"
)

// TestMathConstantsMatchCUDA builds a host program that holds each of
// mathConstants beside CUDA's own definition (the toolkit's
// math_constants.h, next to nvcc) and compares their types and bits.
func TestMathConstantsMatchCUDA(t *testing.T) {
	nvcc := testtool.Require(t, "nvcc")
	cxx := testtool.Require(t, "g++")
	header := ""
	for _, dir := range []string{filepath.Join(filepath.Dir(nvcc), "..", "include"), "/usr/include", "/usr/local/cuda/include"} {
		if p := filepath.Join(dir, "math_constants.h"); isFile(p) {
			header = p
			break
		}
	}
	if header == "" {
		t.Fatalf("nvcc is at %s but no math_constants.h is beside it, in /usr/include or in /usr/local/cuda/include", nvcc)
	}
	var b strings.Builder
	b.WriteString(`#include <cstdio>
#include <cstring>
#include <type_traits>
static inline float __int_as_float(unsigned x) { float f; std::memcpy(&f, &x, sizeof f); return f; }
static inline double __longlong_as_double(unsigned long long x) { double d; std::memcpy(&d, &x, sizeof d); return d; }
#include "` + header + `"
`)
	for _, c := range mathConstants {
		b.WriteString("#define HIPGEN_" + c.name + " " + c.value + "\n")
	}
	b.WriteString("int main() {\n  int bad = 0;\n")
	for _, c := range mathConstants {
		b.WriteString(`  {
    auto cuda = ` + c.name + `;
    auto ours = HIPGEN_` + c.name + `;
    static_assert(std::is_same<decltype(cuda), decltype(ours)>::value, "` + c.name + `: type");
    if (std::memcmp(&cuda, &ours, sizeof cuda) != 0) { std::printf("` + c.name + ` differs\n"); bad++; }
  }
`)
	}
	b.WriteString("  std::printf(\"%d constants compared, %d differ\\n\", " + strconv.Itoa(len(mathConstants)) + ", bad);\n  return bad != 0;\n}\n")
	dir := t.TempDir()
	src := filepath.Join(dir, "constants.cpp")
	if err := os.WriteFile(src, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "constants")
	if out, err := exec.Command(cxx, "-std=c++20", "-o", bin, src).CombinedOutput(); err != nil {
		t.Fatalf("g++: %v\n%s", err, out)
	}
	out, err := exec.Command(bin).CombinedOutput()
	if err != nil {
		t.Fatalf("the constants differ from CUDA's (%s):\n%s", header, out)
	}
	if want := strconv.Itoa(len(mathConstants)) + " constants compared, 0 differ"; !strings.Contains(string(out), want) {
		t.Fatalf("got %q, want %q", out, want)
	}
}

// isFile reports whether p names an existing file.
func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}
