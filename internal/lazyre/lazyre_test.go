package lazyre

import (
	"fmt"
	"regexp"
	"testing"
)

var digits = New(`[0-9]+`)

func TestGet(t *testing.T) {
	re := digits.Get()
	if re != digits.Get() {
		t.Fatal("Get compiled the expression twice")
	}
	if got := re.FindString("ab123c"); got != "123" {
		t.Fatalf("FindString = %q, want 123", got)
	}
}

// An invalid expression panics like regexp.MustCompile, on every call.
func TestGetPanics(t *testing.T) {
	bad := New(`(`)
	want := func() (p any) {
		defer func() { p = recover() }()
		regexp.MustCompile(`(`)
		return nil
	}()
	for i := range 2 {
		got := func() (p any) {
			defer func() { p = recover() }()
			bad.Get()
			return nil
		}()
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("call %d: panic %v, want %v", i+1, got, want)
		}
	}
}
