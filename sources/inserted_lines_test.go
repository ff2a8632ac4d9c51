package sources

import (
	"bytes"
	"testing"
	"time"
)

// TestInsertedLinesShortInputs translates every short input made of up to
// four pieces (after "#pragma once", and alone) that stress where lines
// are inserted: directives, backslashes, quotes, comments, CR. Each must
// translate without hanging, again to the same bytes, and keep its
// comments and literals. It found a translation that never ended
// ("#pragma once /* x */" with no newline at the end) and lines inserted
// after a backslash, which joined them to the line before.
func TestInsertedLinesShortInputs(t *testing.T) {
	pieces := []string{"#pragma once", "\\", "\"", "'", "//", "\n", " ", "/*", "*/", "#ifndef G\n#define G", "x", "\r"}
	var rec func(prefix []byte, depth int)
	n := 0
	rec = func(prefix []byte, depth int) {
		if depth == 0 {
			return
		}
		for _, p := range pieces {
			src := append(append([]byte{}, prefix...), p...)
			n++
			var out, again []byte
			done := make(chan bool)
			go func() {
				out, _ = Translate("f.cu", src, Options{})
				again, _ = Translate("f.cu", out, Options{})
				close(done)
			}()
			select {
			case <-done:
			case <-time.After(2 * time.Second):
				t.Fatalf("hang: %q", src)
			}
			if !bytes.Equal(again, out) {
				t.Fatalf("not idempotent: %q\n%q\n%q", src, out, again)
			}
			if !isSubsequence(protected(src), protected(out)) {
				t.Fatalf("protected changed: %q\n%q", src, out)
			}
			rec(src, depth-1)
		}
	}
	rec([]byte("#pragma once"), 4)
	rec(nil, 4)
	t.Logf("%d inputs", n)
}
