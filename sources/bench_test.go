package sources

import (
	"bytes"
	"os"
	"path/filepath"
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

// BenchmarkTranslate reports single-core throughput (MB/s) of Translate.
func BenchmarkTranslate(b *testing.B) {
	src := benchCorpus(b)
	Translate("warmup.cu", src, Options{})
	b.SetBytes(int64(len(src)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Translate("bench.cu", src, Options{})
	}
}
