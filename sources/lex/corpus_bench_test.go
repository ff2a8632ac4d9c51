package lex

import (
	"os"
	"testing"
)

func BenchmarkScanFile(b *testing.B) {
	src, err := os.ReadFile(os.Getenv("LEXFILE"))
	if err != nil {
		b.Skip(err)
	}
	c := Scan(src, Code{}, nil)
	b.SetBytes(int64(len(src)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c = Scan(src, c, nil)
	}
	b.ReportMetric(float64(len(c.Tokens)), "tokens")
}
