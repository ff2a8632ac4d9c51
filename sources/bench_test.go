package sources

import (
	"bytes"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// benchUnit is one file of a benchmark corpus.
type benchUnit struct {
	name string
	src  []byte
}

// goldenUnits are the golden inputs, each its own file: every line
// exercises a rewrite or a diagnostic, the translator's worst case.
func goldenUnits(b testing.TB) []benchUnit {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	var out []benchUnit
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		if a := txtar.Parse(data); len(a.Files) > 0 {
			out = append(out, benchUnit{a.Files[0].Name, a.Files[0].Data})
		}
	}
	if len(out) == 0 {
		b.Fatal("no golden inputs")
	}
	return out
}

// programUnits are the repository's own CUDA programs (the examples and
// the conformance programs): code as people write it, with far fewer
// rewrites per line than the golden cases.
func programUnits(b testing.TB) []benchUnit {
	var out []benchUnit
	for _, pat := range []string{"../examples/*/*/*.cu", "../examples/*/*/*.cuh", "../conformance/testdata/*/*.cu", "../conformance/testdata/*/*.cuh", "../conformance/testdata/*.cu"} {
		files, _ := filepath.Glob(pat)
		for _, p := range files {
			data, err := os.ReadFile(p)
			if err != nil {
				b.Fatal(err)
			}
			out = append(out, benchUnit{filepath.Base(p), data})
		}
	}
	if len(out) == 0 {
		b.Fatal("no CUDA programs found under ../examples or ../conformance/testdata")
	}
	return out
}

// externalUnits are the .cu and .cuh files under $HIPGEN_BENCH_CORPUS (for
// example the corpus bench/translate-speed.sh extracts from candle-kernels
// and cuda-samples); the benchmark is skipped without it.
func externalUnits(b testing.TB) []benchUnit {
	root := os.Getenv("HIPGEN_BENCH_CORPUS")
	if root == "" {
		b.Skip("HIPGEN_BENCH_CORPUS not set")
	}
	var out []benchUnit
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !(filepath.Ext(p) == ".cu" || filepath.Ext(p) == ".cuh") {
			return err
		}
		data, err := os.ReadFile(p)
		out = append(out, benchUnit{p, data})
		return err
	})
	if err != nil || len(out) == 0 {
		b.Fatalf("no .cu or .cuh files under %s (%v)", root, err)
	}
	return out
}

// concatenated is one translation unit of every unit's text, repeated to
// about 4 MB: far bigger than any real source file, so its working set
// outgrows the CPU caches; reported for comparison.
func concatenated(units []benchUnit) []benchUnit {
	var one, all bytes.Buffer
	for _, u := range units {
		one.Write(u.src)
		one.WriteByte('\n')
	}
	for all.Len() < 4<<20 {
		all.Write(one.Bytes())
	}
	return []benchUnit{{"all.cu", all.Bytes()}}
}

// BenchmarkTranslate reports single-core throughput (MB/s) of the
// translator, file by file as a worker of hipgen translate runs it (lexing,
// then the translation into the storage of the previous output): on the golden
// inputs (the worst case), on the repository's CUDA programs (typical
// code), on an external corpus when HIPGEN_BENCH_CORPUS names one, and on
// the golden inputs concatenated into one 4 MB translation unit. Run it
// with -cpu 1; cpu-MB/s divides by the process's CPU time instead of the
// wall clock, which a shared machine inflates.
func BenchmarkTranslate(b *testing.B) {
	for _, c := range []struct {
		name  string
		units func(testing.TB) []benchUnit
	}{
		{"golden", goldenUnits},
		{"programs", programUnits},
		{"external", externalUnits},
		{"golden-one-4MB-unit", func(b testing.TB) []benchUnit { return concatenated(goldenUnits(b)) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			units := c.units(b)
			size := 0
			var out []byte
			for _, u := range units {
				size += len(u.src)
				out, _, _ = Parse(u.name, u.src).TranslateInto(out, Options{}) // warm up
			}
			b.SetBytes(int64(size))
			b.ResetTimer()
			cpu0 := cpuSeconds()
			for i := 0; i < b.N; i++ {
				for _, u := range units {
					out, _, _ = Parse(u.name, u.src).TranslateInto(out, Options{})
				}
			}
			if d := cpuSeconds() - cpu0; d > 0 {
				b.ReportMetric(float64(size)*float64(b.N)/d/1e6, "cpu-MB/s")
			}
		})
	}
}

// cpuSeconds is the user and system time the process has used.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}
