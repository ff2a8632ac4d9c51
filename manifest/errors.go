package manifest

import (
	"errors"
	"fmt"
	"strings"
)

// ErrInvalid is wrapped by every error Load returns for a manifest that
// exists but cannot be used (syntax, evaluation or validation).
var ErrInvalid = errors.New("invalid manifest")

// ErrNotFound is wrapped when there is no manifest file.
var ErrNotFound = errors.New("manifest not found")

// Error is one problem in a manifest. Either Line/Col (Jsonnet syntax and
// evaluation errors) or Field (validation errors, e.g. "targets[1].deps[0]")
// says where it is.
type Error struct {
	File  string
	Line  int
	Col   int
	Field string
	Msg   string
}

func (e *Error) Error() string {
	switch {
	case e.Line > 0:
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
	case e.Field != "":
		return fmt.Sprintf("%s: %s: %s", e.File, e.Field, e.Msg)
	default:
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
}

// ErrorList is every problem found, in the order the manifest was walked.
type ErrorList []*Error

func (l ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Unwrap lets errors.Is(err, ErrInvalid) hold for any list.
func (l ErrorList) Unwrap() error { return ErrInvalid }
