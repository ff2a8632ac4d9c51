package sources

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

func TestZZPerFile(t *testing.T) {
	root := os.Getenv("ZZ_CORPUS")
	if root == "" {
		t.Skip()
	}
	type r struct {
		name string
		size int
		d    time.Duration
	}
	var rs []r
	var total time.Duration
	filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && (strings.HasSuffix(p, ".cu") || strings.HasSuffix(p, ".cuh")) {
			d, _ := os.ReadFile(p)
			Parse(p, d).Translate(Options{})
			best := time.Hour
			for k := 0; k < 5; k++ {
				t0 := time.Now()
				for i := 0; i < 20; i++ {
					Parse(p, d).Translate(Options{})
				}
				best = min(best, time.Since(t0)/20)
			}
			rs = append(rs, r{strings.TrimPrefix(p, root), len(d), best})
			total += best
		}
		return nil
	})
	sort.Slice(rs, func(i, j int) bool { return rs[i].d > rs[j].d })
	size := 0
	for _, x := range rs {
		size += x.size
	}
	fmt.Printf("total %v for %d bytes: %.1f MB/s\n", total, size, float64(size)/total.Seconds()/1e6)
	for _, x := range rs[:25] {
		fmt.Printf("%8v %7d %6.1f MB/s %5.1f%% %s\n", x.d, x.size, float64(x.size)/x.d.Seconds()/1e6, 100*x.d.Seconds()/total.Seconds(), x.name)
	}
}

func BenchmarkZZOne(b *testing.B) {
	p := os.Getenv("ZZ_FILE")
	d, err := os.ReadFile(p)
	if err != nil {
		b.Skip()
	}
	b.SetBytes(int64(len(d)))
	for i := 0; i < b.N; i++ {
		Parse(p, d).Translate(Options{})
	}
}
