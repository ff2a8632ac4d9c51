package conformance

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// slots bounds how many compilers run at once: the suite shares two cores.
var slots = make(chan struct{}, 2)

// run executes a command with a deadline inside one compiler slot and
// returns its combined output. dir may be empty.
func run(dir string, env []string, timeout time.Duration, name string, args ...string) ([]byte, error) {
	slots <- struct{}{}
	defer func() { <-slots }()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	err := cmd.Run()
	if ctx.Err() != nil {
		err = fmt.Errorf("%s timed out after %v", name, timeout)
	}
	return out.Bytes(), err
}

// tail keeps the end of a long compiler log readable in a test failure.
func tail(b []byte, lines int) string {
	s := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(s) > lines {
		s = append([]string{fmt.Sprintf("... (%d lines omitted)", len(s)-lines)}, s[len(s)-lines:]...)
	}
	return strings.Join(s, "\n")
}
