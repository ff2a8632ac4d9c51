package main

import (
	"testing"

	"github.com/hipgen/hipgen/builder"
	"github.com/hipgen/hipgen/diag"
	"github.com/hipgen/hipgen/internal/sysfile"
)

func TestTranslateStateRoundTrip(t *testing.T) {
	files := map[string]fileState{
		"src/a.cu": {
			Key: "k1", OutHash: "h1", OutStat: sysfile.Stamp{Ino: 7, Size: 120, Mtime: -1, Ctime: 1 << 62}, SrcSize: 99,
			Includes: []string{`"a.cuh`, "<cuda_runtime.h>", `"missing.h`}, Local: []string{"a.cuh"},
			Diags: []diag.Diagnostic{
				{File: "src/a.cu", Line: 3, Col: 5, Severity: diag.Warning, Message: "m\twith\ttabs\nand a newline", Check: "launch"},
				{File: "src/other.cuh", Line: 0, Col: 0, Severity: diag.Error, Message: "elsewhere"},
			},
		},
		"b.cuh": {Key: "k2", OutHash: "h2"},
	}
	data := encodeState(files, nil, nil)
	if !builder.HasGeneratedMarker(data) {
		t.Fatal("state lacks the generated-file marker")
	}
	// Entries the workers encoded ahead give the same bytes.
	records := map[string][]byte{"src/a.cu": encodeRecord("src/a.cu", files["src/a.cu"])}
	if again := encodeState(files, records, nil); string(again) != string(data) {
		t.Fatalf("with a record encoded ahead the state differs:\n%q\n%q", again, data)
	}
	got, err := decodeState(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(files) {
		t.Fatalf("decoded %d files, want %d", len(got), len(files))
	}
	for p, f := range files {
		if !got[p].equal(f) {
			t.Errorf("%s: decoded %+v, want %+v", p, got[p], f)
		}
	}
	// Anything else reads as no state: truncated, extended, or an older
	// hipgen's JSON.
	for _, bad := range [][]byte{
		data[:len(data)-1],
		append(append([]byte(nil), data...), 0),
		[]byte(stateHeader + `{"files":{}}`),
	} {
		if _, err := decodeState(bad); err == nil {
			t.Errorf("decoded a malformed state of %d bytes", len(bad))
		}
	}
}
