package sources

import (
	"bytes"
	"github.com/hipgen/hipgen/internal/testtool"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// hipccCases are golden cases whose translations must compile with the
// real hipcc: every warp helper, both launch styles, cooperative groups,
// fp16, both wavefront strategies, and the libraries Debian packages
// (hipRAND, hipSPARSE).
// Each hipcc run takes seconds, so the list is the smallest that reaches
// every helper and rewrite kind.
var hipccCases = []string{
	"family_fp16", "family_cooperative_groups", "dependent_template_keyword", "polyfill_cvta", "device_props_overlap", "polyfill_math_constants", "pointer_attributes_type", "polyfill_legacy_device_functions", "unified_memory_location_driver", "cuda_arch_guard_vector_type", "launch_ggl_template", "launch_after_branch_braces", "polyfill_half2_member_results", "diag_builtin_redefinition_atomicadd", "grid_constant", "driver_overload_error_enum", "polyfill_atomic_system_wrap", "member_rename_alloc_prop", "device_props_stream_priorities", "cg_const_block_index", "pragma_in_macro",
	"idempotent_full_program", "idempotent_header_guarded_warp",
	"wave_match", "wave_any_all_uni", "wave_syncwarp", "wave_reduce_sync",
	"wave_warpsize_generic", "wave_legacy_intrinsics", "wave_wide_mode", "wave64_native_hip_branches", "wave64_native_exclusive", "polyfill_sharedmem_carveout", "error_code_case_labels", "literal_glued_macro",
	"polyfills", "libcuxx_std", "cuda_arch_guards", "device_classification", "polyfill_hmax2", "guard_macros_renamed", "kernel_pointer_cast",
	"cuda_arch_older_blocks", "cuda_arch_device_twins", "vector_zero_init", "cudart_version_value", "pp_condition_passes", "helper_cuda_library_guards", "builtin_proxy_arguments", "polyfill_atomic_i64", "atomic_i64_overloads", "polyfill_type_declared_by_project", "pytorch_names_outside_torch",
	"call_fixes_alloc", "callback_and_cudart_version",
	"cg_alias_reduce_polyfill", "cg_alias_function_scope", "cg_meta_group_polyfill", "cg_shuffle_any_type",
	"cuda_arch_values", "polyfill_bfloat162_rocm52", "launch_ggl_dynamic_shared", "cudart_version_by_content", "family_bf16_return_float_rocm52", "polyfill_cache_hints", "family_bf16_rocm52", "family_curand", "family_cusparse",
	"call_fixes_kernel_templates", "define_name_kept", "launch_chevron_spaced_brackets", "launch_ggl_spaced_brackets", "cg_thread_block_dims", "nvcc_macro", "literal_keyword_glued", "libcuxx_memory_order", "wave_shfl_source_lane", "wave_shfl_source_lane_wide",
	"device_props_hazards", "cudart_version_unportable_content", "polyfill_driver_error_string", "call_fixes_graph_instantiate", "launch_bounds", "polyfill_bfloat162_intrinsics_rocm52", "polyfill_bfloat16_atomics_bits_rocm52", "math_include_host_classification", "polyfill_min_max_mixed_sign", "polyfill_atomic_add_half", "library_data_types_sparse", "call_fixes_sparse_solve_buffer", "polyfill_curand_ordering", "register_keyword", "wave_intrinsic_own_macro", "diag_builtin_redefinition", "vector_compound_operators", "bf16_float_pair_rocm52", "source_byte_order_mark", "polyfill_shuffle_half", "polyfill_simd_intrinsics", "polyfill_bf16_to_integer", "ffsll_argument", "dim3_from_uint3", "polyfill_half_host_arithmetic", "polyfill_host_math", "polyfill_half_tanh", "cudacc_ver_expression", "asm_host_cpu_compiles", "polyfill_mem_location", "cuda_arch_older_else", "half2_empty_assign",
	"ptx_instructions", "ptx_ordered_atomics", "ptx_lane_registers", "ptx_registers", "ptx_arithmetic", "polyfill_device_builtin", "diag_builtin_variable_declaration",
}

// poisonCUDAHeaders fills dir with a file of the same name for every
// header of NVIDIA's toolkit found under /usr/include (Debian installs them
// there) plus a fixed list, each an #error. dir goes first on the include
// path, so a translation that still includes a CUDA header fails instead
// of compiling against NVIDIA's copy.
func poisonCUDAHeaders(t *testing.T, dir string) int {
	t.Helper()
	n := 0
	poison := func(rel string) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		body := "#error \"CUDA header " + rel + " leaked into a HIP translation\"\n"
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		n++
	}
	for _, h := range []string{"cuda.h", "cuda_runtime.h", "cuda_runtime_api.h", "cuda_fp16.h", "cuda_bf16.h", "cuda_fp8.h",
		"cooperative_groups.h", "cooperative_groups/reduce.h", "cub/cub.cuh", "curand_kernel.h", "cublas_v2.h", "device_launch_parameters.h"} {
		poison(h)
	}
	const sys = "/usr/include"
	filepath.WalkDir(sys, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(sys, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && !isCUDAHeader(rel+"/") && !strings.HasPrefix(rel, "cooperative_groups") {
				return filepath.SkipDir
			}
			return nil
		}
		if isCUDAHeader(rel) {
			poison(rel)
		}
		return nil
	})
	return n
}

func TestTranslationsCompileWithHipcc(t *testing.T) {
	hipcc := testtool.Require(t, "hipcc")
	goldens := goldensByName(t)
	dir := t.TempDir()
	poisonDir := filepath.Join(dir, "poison")
	if n := poisonCUDAHeaders(t, poisonDir); n < 10 {
		t.Fatalf("only %d poisoned headers", n)
	}
	var mu sync.Mutex
	sem := make(chan struct{}, 2)
	var wg sync.WaitGroup
	for _, name := range hipccCases {
		g, ok := goldens[name]
		if !ok {
			t.Fatalf("golden case %s not found", name)
		}
		out, _ := Translate(g.name, g.input, g.opts)
		for _, inc := range Includes(out) {
			if isCUDAHeader(inc.Path) {
				t.Errorf("%s: translation still includes CUDA header %s (line %d)", name, inc.Path, inc.Line)
			}
		}
		src := filepath.Join(dir, name+".hip")
		if err := os.WriteFile(src, out, 0o644); err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			cmd := hipccCommand(hipcc, "-x", "hip", "-std=c++17", "-fsyntax-only", "--offload-arch=gfx90a", "--offload-arch=gfx1030",
				"-I", poisonDir, src)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Run(); err != nil {
				mu.Lock()
				t.Errorf("%s: hipcc failed: %v\n%s\n--- translation\n%s", name, err, filterHipccNoise(stderr.String()), out)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
}

// TestPoisonCatchesLeaks proves the isolation works: an untranslated CUDA
// include must fail to compile.
func TestPoisonCatchesLeaks(t *testing.T) {
	hipcc := testtool.Require(t, "hipcc")
	dir := t.TempDir()
	poisonDir := filepath.Join(dir, "poison")
	poisonCUDAHeaders(t, poisonDir)
	src := filepath.Join(dir, "leak.hip")
	os.WriteFile(src, []byte("#include <hip/hip_runtime.h>\n#include <cuda_runtime.h>\n"), 0o644)
	cmd := hipccCommand(hipcc, "-x", "hip", "-fsyntax-only", "--offload-arch=gfx90a", "-I", poisonDir, src)
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "leaked into a HIP translation") {
		t.Fatalf("a CUDA include compiled despite the poisoned include path:\n%s", out)
	}
}

func filterHipccNoise(s string) string {
	var keep []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, "-Wunused-command-line-argument") {
			continue
		}
		keep = append(keep, l)
	}
	return strings.Join(keep, "\n")
}

// hostRunCases are golden cases whose input is a self-checking program
// that computes on the host only: TestHostProgramsRun builds each
// translation with hipcc and runs it, which needs no GPU, so that the
// host stand-ins hipgen adds are checked for CUDA's results, not only
// compiled. Each original passes with nvcc 13 (CUDA 12.2 and later have
// __half's operators on the host).
var hostRunCases = []string{"polyfill_half_host_arithmetic", "polyfill_host_math", "polyfill_half2_members", "polyfill_half_host_conversions"}

func TestHostProgramsRun(t *testing.T) {
	hipcc := testtool.Require(t, "hipcc")
	goldens := goldensByName(t)
	dir := t.TempDir()
	poisonDir := filepath.Join(dir, "poison")
	poisonCUDAHeaders(t, poisonDir)
	for _, name := range hostRunCases {
		t.Run(name, func(t *testing.T) {
			g, ok := goldens[name]
			if !ok {
				t.Fatalf("golden case %s not found", name)
			}
			out, _ := Translate(g.name, g.input, g.opts)
			src, bin := filepath.Join(dir, name+".hip"), filepath.Join(dir, name)
			if err := os.WriteFile(src, out, 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := hipccCommand(hipcc, "-x", "hip", "-std=c++17", "--offload-arch=gfx90a", "-I", poisonDir, "-o", bin, src)
			if msg, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("hipcc failed: %v\n%s", err, filterHipccNoise(string(msg)))
			}
			got, err := exec.Command(bin).CombinedOutput()
			if err != nil || !strings.HasSuffix(string(got), "PASS\n") {
				t.Fatalf("the translation ran with %v:\n%s", err, got)
			}
		})
	}
}

// TestRelocatableDeviceCodeNeedsRDC checks what the relocatable-device-code
// warning says against hipcc: the translation of the golden case
// diag_relocatable_device_code, whose kernel calls device functions and
// variables defined elsewhere, fails to compile (-c) without -fgpu-rdc and
// compiles with it.
func TestRelocatableDeviceCodeNeedsRDC(t *testing.T) {
	hipcc := testtool.Require(t, "hipcc")
	g, ok := goldensByName(t)["diag_relocatable_device_code"]
	if !ok {
		t.Fatal("golden case diag_relocatable_device_code not found")
	}
	out, _ := Translate(g.name, g.input, g.opts)
	dir := t.TempDir()
	src := filepath.Join(dir, "k.hip")
	if err := os.WriteFile(src, out, 0o644); err != nil {
		t.Fatal(err)
	}
	compile := func(extra ...string) (string, error) {
		args := append([]string{"-x", "hip", "-std=c++17", "--offload-arch=gfx90a", "-c", "-o", filepath.Join(dir, "k.o")}, extra...)
		cmd := hipccCommand(hipcc, append(args, src)...)
		msg, err := cmd.CombinedOutput()
		return string(msg), err
	}
	if msg, err := compile(); err == nil || !strings.Contains(msg, "undefined hidden symbol") {
		t.Errorf("without -fgpu-rdc: want hipcc to fail with an undefined hidden symbol, got %v:\n%s", err, msg)
	}
	if msg, err := compile("-fgpu-rdc"); err != nil {
		t.Errorf("with -fgpu-rdc: hipcc failed: %v\n%s", err, filterHipccNoise(msg))
	}
}

// goldensByName returns the golden cases by name: the file's, without
// .txtar.
func goldensByName(t *testing.T) map[string]golden {
	goldens := map[string]golden{}
	for _, g := range loadGoldens(t) {
		goldens[strings.TrimSuffix(filepath.Base(g.path), ".txtar")] = g
	}
	return goldens
}

// hipccCommand runs hipcc with args for AMD GPUs: Debian's hipcc picks
// NVIDIA's platform whenever nvcc is on PATH, unless HIP_PLATFORM says
// otherwise.
func hipccCommand(hipcc string, args ...string) *exec.Cmd {
	cmd := exec.Command(hipcc, args...)
	cmd.Env = append(os.Environ(), "HIP_PLATFORM=amd")
	return cmd
}
