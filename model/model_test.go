package model

import (
	"slices"
	"strings"
	"testing"
)

func TestDepsClosureOrder(t *testing.T) {
	p := &Project{Targets: []*Target{
		{Name: "base", Kind: KindLibrary},
		{Name: "mid", Kind: KindLibrary, Deps: []string{"base"}},
		{Name: "other", Kind: KindLibrary, Deps: []string{"base"}},
		{Name: "app", Kind: KindBinary, Deps: []string{"mid", "other"}},
	}}
	var got []string
	for _, d := range p.DepsClosure(p.Target("app")) {
		got = append(got, d.Name)
	}
	want := []string{"base", "mid", "other"}
	if len(got) != len(want) {
		t.Fatalf("closure = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("closure = %v, want %v", got, want)
		}
	}
	if p.Target("nope") != nil {
		t.Error("Target found a missing name")
	}
	if !KindTorchExtension.Valid() || Kind("lib").Valid() {
		t.Error("Kind.Valid wrong")
	}
}

func TestLinkFlags(t *testing.T) {
	items := []string{"cublas", "-lcurand", "cudart", "-lcuda", "m", "-pthread", "/opt/x/libfoo.a", "libbar.so", "cublasLt"}
	for _, c := range []struct {
		rocm bool
		want string
	}{
		{false, "-lcublas -lcurand -lcudart -lcuda -lm -pthread /opt/x/libfoo.a libbar.so -lcublasLt"},
		{true, "-lhipblas -lhiprand -lm -pthread /opt/x/libfoo.a libbar.so -lhipblaslt"},
	} {
		if got := strings.Join(LinkFlags(items, c.rocm), " "); got != c.want {
			t.Errorf("LinkFlags(rocm=%v) = %q, want %q", c.rocm, got, c.want)
		}
	}
	if got := strings.Join(LinkNames(items, true), " "); got != "hipblas -lhiprand m -pthread /opt/x/libfoo.a libbar.so hipblaslt" {
		t.Errorf("LinkNames(rocm) = %q", got)
	}
}

func TestMergeDefines(t *testing.T) {
	got := MergeDefines([]string{"USE_ROCM", "B=2", "A", "B=3", "USE_ROCM=0"})
	want := []string{"A", "B=3", "USE_ROCM=0"}
	if !slices.Equal(got, want) {
		t.Errorf("MergeDefines = %q, want %q", got, want)
	}
	if got := MergeDefines(nil); len(got) != 0 {
		t.Errorf("MergeDefines(nil) = %q, want none", got)
	}
}
