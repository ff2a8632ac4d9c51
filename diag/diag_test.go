package diag

import (
	"strings"
	"testing"
)

func TestWriteText(t *testing.T) {
	ds := []Diagnostic{
		{File: "a.cu", Line: 12, Col: 3, Severity: Warning, Message: "m", Check: "launch"},
		{File: "b.cuh", Severity: Error, Message: "no position"},
		{File: "c.cu", Line: 1, Col: 0, Severity: Note, Message: "ünïcode \xff"},
	}
	want := "a.cu:12:3: warning: m [launch]\n" +
		"b.cuh: error: no position\n" +
		"c.cu:1:0: note: ünïcode \xff\n"
	var b strings.Builder
	if err := WriteText(&b, ds); err != nil || b.String() != want {
		t.Errorf("WriteText = %q, %v; want %q", b.String(), err, want)
	}
	if got := ds[0].String(); got != "a.cu:12:3: warning: m [launch]" {
		t.Errorf("String = %q", got)
	}
	b.Reset()
	if err := WriteText(&b, nil); err != nil || b.Len() != 0 {
		t.Errorf("WriteText(nil) = %q, %v", b.String(), err)
	}
}
