// Package diag owns the diagnostic type every hipgen stage reports with:
// position, severity, message and check name, printed as
// "file:line:col: severity: message [check]". It does no I/O beyond writing
// to the io.Writer it is given.
package diag

import (
	"cmp"
	"encoding/json"
	"io"
	"slices"
	"strconv"
)

// Severity orders diagnostics; only Error makes a command fail.
type Severity int

// Severities, least severe first.
const (
	Note Severity = iota
	Warning
	Error
)

func (s Severity) String() string {
	switch s {
	case Note:
		return "note"
	case Warning:
		return "warning"
	default:
		return "error"
	}
}

// MarshalText spells the severity as in text output.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Diagnostic is one finding at a position. Line and Col are 1-based; Col
// counts bytes. Check names the rule so users can suppress it.
type Diagnostic struct {
	File     string   `json:"file"`
	Line     int      `json:"line"`
	Col      int      `json:"col"`
	Severity Severity `json:"severity"`
	Message  string   `json:"message"`
	Check    string   `json:"check,omitempty"`
}

// String formats d the way compilers do, so editors can jump to it.
func (d Diagnostic) String() string { return string(d.appendText(nil)) }

// appendText appends what String returns to b.
func (d Diagnostic) appendText(b []byte) []byte {
	b = append(b, d.File...)
	if d.Line > 0 {
		b = strconv.AppendInt(append(b, ':'), int64(d.Line), 10)
		b = strconv.AppendInt(append(b, ':'), int64(d.Col), 10)
	}
	b = append(append(append(append(b, ": "...), d.Severity.String()...), ": "...), d.Message...)
	if d.Check != "" {
		b = append(append(append(b, " ["...), d.Check...), ']')
	}
	return b
}

// Sort orders diagnostics by file, line, column, then check, so output is
// deterministic whatever order the stages ran in. Diagnostics gathered
// from files taken in order often are in order already, which costs one
// pass to see.
func Sort(ds []Diagnostic) {
	if !slices.IsSortedFunc(ds, Compare) {
		slices.SortStableFunc(ds, Compare)
	}
}

// Compare orders diagnostics as Sort does: by file, line, column, check
// and message.
func Compare(a, b Diagnostic) int {
	return cmp.Or(
		cmp.Compare(a.File, b.File),
		cmp.Compare(a.Line, b.Line),
		cmp.Compare(a.Col, b.Col),
		cmp.Compare(a.Check, b.Check),
		cmp.Compare(a.Message, b.Message),
	)
}

// HasErrors reports whether any diagnostic is an Error.
func HasErrors(ds []Diagnostic) bool {
	for _, d := range ds {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// AppendText appends the lines WriteText prints for ds to b.
func AppendText(b []byte, ds []Diagnostic) []byte {
	// Room for all of them at once (the numbers, severity and
	// punctuation take fewer than 40 bytes).
	n := 0
	for _, d := range ds {
		n += len(d.File) + len(d.Message) + len(d.Check) + 40
	}
	b = slices.Grow(b, n)
	for _, d := range ds {
		b = append(d.appendText(b), '\n')
	}
	return b
}

// WriteText prints one diagnostic per line.
func WriteText(w io.Writer, ds []Diagnostic) error {
	var b []byte
	for i, d := range ds {
		b = append(d.appendText(b), '\n')
		if len(b) >= 64<<10 || i == len(ds)-1 {
			if _, err := w.Write(b); err != nil {
				return err
			}
			b = b[:0]
		}
	}
	return nil
}

// WriteJSON prints the diagnostics as one JSON array.
func WriteJSON(w io.Writer, ds []Diagnostic) error {
	if ds == nil {
		ds = []Diagnostic{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(ds)
}
