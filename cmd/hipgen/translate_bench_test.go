package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime/trace"
	"testing"
)

// BenchmarkTranslateTree times 'hipgen translate -o OUT .' in process over
// the corpus that HIPGEN_BENCH_CORPUS names (bench/translate-speed.sh
// prepares one), each run into a fresh output tree: the work of a full
// translation after the process has started (listing, reading, translating,
// writing, the state and the report). Run it with -cpu 1 for the work of one
// core; allocs/op counts what reaches the collector.
func BenchmarkTranslateTree(b *testing.B) {
	corpus := os.Getenv("HIPGEN_BENCH_CORPUS")
	if corpus == "" {
		b.Skip("HIPGEN_BENCH_CORPUS is unset: it names a directory of CUDA sources (see bench/translate-speed.sh)")
	}
	out := filepath.Join(b.TempDir(), "out")
	run1 := func() {
		if code := run([]string{"-C", corpus, "translate", "-o", out, "."}, nil, io.Discard, io.Discard); code > exitFailures {
			b.Fatalf("translate exited %d", code)
		}
	}
	run1() // warm up
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		if err := os.RemoveAll(out); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		// A region for each run: go test -trace shows where it waits.
		trace.WithRegion(context.Background(), "translate", run1)
	}
}
