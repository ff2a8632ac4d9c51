package model

import "testing"

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
