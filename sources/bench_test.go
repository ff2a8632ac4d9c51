package sources

import (
	"bytes"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// benchCorpus concatenates every golden input, repeated to about 4 MB, so
// the benchmark measures the steady state of lexing and mapping.
func benchCorpus(b *testing.B) []byte {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	var one bytes.Buffer
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		if a := txtar.Parse(data); len(a.Files) > 0 {
			one.Write(a.Files[0].Data)
			one.WriteByte('\n')
		}
	}
	if one.Len() == 0 {
		b.Fatal("no golden inputs")
	}
	var all bytes.Buffer
	for all.Len() < 4<<20 {
		all.Write(one.Bytes())
	}
	return all.Bytes()
}

// programsCorpus concatenates the repository's own CUDA programs (the
// examples and the conformance programs), repeated to about 4 MB: code as
// people write it, with far fewer rewrites per line than the golden cases.
func programsCorpus(b *testing.B) []byte {
	var one bytes.Buffer
	for _, pat := range []string{"../examples/*/*/*.cu", "../examples/*/*/*.cuh", "../conformance/testdata/*/*.cu", "../conformance/testdata/*/*.cuh", "../conformance/testdata/*.cu"} {
		files, _ := filepath.Glob(pat)
		for _, p := range files {
			data, err := os.ReadFile(p)
			if err != nil {
				b.Fatal(err)
			}
			one.Write(data)
			one.WriteByte('\n')
		}
	}
	if one.Len() == 0 {
		b.Fatal("no CUDA programs found under ../examples or ../conformance/testdata")
	}
	var all bytes.Buffer
	for all.Len() < 4<<20 {
		all.Write(one.Bytes())
	}
	return all.Bytes()
}

// BenchmarkTranslate reports single-core throughput (MB/s) of Translate on
// the golden inputs (every line exercises a rewrite or a diagnostic: the
// worst case) and on the repository's CUDA programs (typical code).
func BenchmarkTranslate(b *testing.B) {
	for _, c := range []struct {
		name   string
		corpus func(*testing.B) []byte
	}{{"golden", benchCorpus}, {"programs", programsCorpus}} {
		b.Run(c.name, func(b *testing.B) {
			src := c.corpus(b)
			Translate("warmup.cu", src, Options{})
			b.SetBytes(int64(len(src)))
			b.ResetTimer()
			cpu0 := cpuSeconds()
			for i := 0; i < b.N; i++ {
				Translate("bench.cu", src, Options{})
			}
			// On a shared machine wall time includes waiting for a core;
			// the process's CPU time (GC included) does not.
			if d := cpuSeconds() - cpu0; d > 0 {
				b.ReportMetric(float64(len(src))*float64(b.N)/d/1e6, "cpu-MB/s")
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
