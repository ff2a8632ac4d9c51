package hipmap

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// hipIncludeDir is where Debian's libamdhip64-dev (ROCm 5.2) installs the
// HIP runtime headers.
const hipIncludeDir = "/usr/include/hip"

// installedROCm is the release of those headers.
var installedROCm = Version{5, 2}

// checkedFamilies are the families whose HIP names live in the HIP runtime
// headers (the libraries' headers are not packaged on this machine).
var checkedFamilies = map[string]bool{
	"runtime": true, "driver": true, "device": true, "math": true, "fp16": true,
	"complex": true, "nvrtc": true, "cooperative_groups": true,
}

// TestHIPNamesExistInInstalledROCm checks every entry of the runtime-header
// families that claims to be available in ROCm 5.2 against the identifiers
// declared in the installed HIP headers: a mapping that would produce a
// name ROCm 5.2 lacks must carry a MinROCm instead.
func TestHIPNamesExistInInstalledROCm(t *testing.T) {
	idents := hipHeaderIdentifiers(t)
	var checked int
	var missing []string
	for _, e := range Default().Entries() {
		if e.Kind != Identifier || !checkedFamilies[e.Family] || !e.Available(installedROCm) {
			continue
		}
		checked++
		name := e.HIP
		if i := strings.LastIndex(name, "::"); i >= 0 {
			name = name[i+2:] // cooperative_groups::X: look for X
		}
		if !idents[name] {
			missing = append(missing, e.Family+": "+e.CUDA+" -> "+e.HIP)
		}
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Errorf("HIP name not declared in %s (ROCm %v): %s", hipIncludeDir, installedROCm, m)
	}
	t.Logf("%d entries available on ROCm %v checked against %d identifiers of %s; %d missing",
		checked, installedROCm, len(idents), hipIncludeDir, len(missing))
	if checked < 1000 {
		t.Errorf("only %d entries checked; the families lost their ROCm 5.2 entries?", checked)
	}
}

var identToken = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

// hipHeaderIdentifiers returns every identifier that appears in the
// installed HIP headers. Appearing is weaker than being declared, but HIP
// headers do not mention CUDA-only names, so a HIP name that is absent is
// certainly missing.
func hipHeaderIdentifiers(t *testing.T) map[string]bool {
	t.Helper()
	if _, err := os.Stat(filepath.Join(hipIncludeDir, "hip_runtime.h")); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("HIP headers (libamdhip64-dev) missing: %v", err)
		}
		t.Skipf("HIP headers (libamdhip64-dev) not installed: %v", err)
	}
	idents := map[string]bool{}
	err := filepath.WalkDir(hipIncludeDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Type()&fs.ModeSymlink != 0 {
			return err // hcc_detail is a link to amd_detail
		}
		// nvidia_detail maps HIP onto CUDA and names CUDA identifiers.
		if rel, _ := filepath.Rel(hipIncludeDir, path); filepath.Dir(rel) == "nvidia_detail" || filepath.Dir(rel) == "nvcc_detail" {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, id := range identToken.FindAll(b, -1) {
			idents[string(id)] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return idents
}
