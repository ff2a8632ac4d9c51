// Package conformance proves, by compiling and running them, that hipgen's
// translations of warp-level CUDA programs are right.
//
// Its tests take the self-checking CUDA programs in testdata/ (each prints
// PASS or FAIL and exits 0, 1, or 77 when no GPU is present), compile every
// original with nvcc, translate it with sources.Translate, check that no CUDA
// header survives, and compile the translation with hipcc for wave64 (gfx90a,
// gfx940) and wave32 (gfx1030) targets in a tree where CUDA's headers cannot
// be reached. Where HIP_CPU_ROOT names a patched copy of ROCm's HIP-CPU
// (bench/hip-cpu/patch.sh), the translations also run there, 64 lanes wide,
// and must print PASS.
//
// The package holds no product code: it only observes the translator through
// its public API and never writes outside the test's temporary directories.
package conformance
