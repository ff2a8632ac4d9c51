package archdetect

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/hipgen/hipgen/internal/lazyre"
)

// Host is the injected world detection reads: a file system root, the
// environment and a command runner. Zero fields mean the real machine, so
// Host{} works; tests set Root to a fixture tree and Run to recorded output.
type Host struct {
	// Root is where "/sys" is looked up: "/" on a real machine, a
	// fixture directory in tests.
	Root   string
	Getenv func(string) string
	// Run runs a command and returns its standard output. A failed
	// command returns an error that carries its standard error
	// (an *ExitError from the real runner).
	Run      func(name string, args ...string) (stdout []byte, err error)
	LookPath func(string) (string, error)

	// cache remembers toolchain probes for the life of one Host, so a run
	// that checks several targets asks each compiler once.
	cache *toolCache
}

// ExitError is a command that ran and failed; Stderr is what it printed.
type ExitError struct {
	Command string
	Code    int
	Stderr  string
	// Stdout is kept because some tools (rocminfo) explain their
	// failure there.
	Stdout string
}

func (e *ExitError) Error() string {
	msg := fmt.Sprintf("%s: exit status %d", e.Command, e.Code)
	if line := lastLine(e.Stderr); line != "" {
		msg += ": " + line
	}
	return msg
}

// stderrOf returns what a failed command printed, for parsing.
func stderrOf(err error) string {
	var ee *ExitError
	if errors.As(err, &ee) {
		return ee.Stderr
	}
	if err == nil {
		return ""
	}
	return err.Error()
}

var ansiRe = lazyre.New(`\x1b\[[0-9;]*m`)

// lastLine is the last non-empty line without terminal colours, which for
// a Python traceback or a compiler failure is the one that says what went
// wrong.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(ansiRe.Get().ReplaceAllString(s, "")), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(lines[i]); l != "" {
			return l
		}
	}
	return ""
}

// RealHost returns the machine hipgen runs on, with a toolchain cache.
func RealHost() Host {
	return Host{Root: "/", Getenv: os.Getenv, Run: runReal, LookPath: exec.LookPath, cache: newToolCache()}
}

// withDefaults fills zero fields with the real machine's.
func (h Host) withDefaults() Host {
	if h.Root == "" {
		h.Root = "/"
	}
	if h.Getenv == nil {
		h.Getenv = os.Getenv
	}
	if h.Run == nil {
		h.Run = runReal
	}
	if h.LookPath == nil {
		h.LookPath = exec.LookPath
	}
	return h
}

// runTimeout bounds every probe: a wedged driver can hang nvidia-smi or
// rocminfo, and detection must never hang a build.
const runTimeout = 60 * time.Second

// runReal runs name with LC_ALL=C so outputs parse the same everywhere.
// hipcc runs with HIP_PLATFORM=amd unless the user set one: hipgen only
// calls hipcc for AMD, and without it Debian's hipcc picks nvcc on a
// machine that has CUDA.
func runReal(name string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	if filepath.Base(name) == "hipcc" && os.Getenv("HIP_PLATFORM") == "" {
		cmd.Env = append(cmd.Env, "HIP_PLATFORM=amd")
	}
	// A private TMPDIR, removed afterwards: hipcc (ROCm 5.2's clang)
	// leaves an empty directory in TMPDIR on every compile.
	if tmp, err := os.MkdirTemp("", "hipgen-probe"); err == nil {
		defer os.RemoveAll(tmp)
		cmd.Env = append(cmd.Env, "TMPDIR="+tmp)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err != nil {
		var xe *exec.ExitError
		if errors.As(err, &xe) {
			return stdout.Bytes(), &ExitError{Command: filepath.Base(name), Code: xe.ExitCode(), Stderr: stderr.String(), Stdout: stdout.String()}
		}
		return stdout.Bytes(), err
	}
	return stdout.Bytes(), nil
}

// getenv reads the environment through h, or the process's when h has none.
func (h Host) getenv(name string) string {
	if h.Getenv == nil {
		return os.Getenv(name)
	}
	return h.Getenv(name)
}

// path maps an absolute host path under Root.
func (h Host) path(abs string) string {
	return filepath.Join(h.Root, filepath.FromSlash(abs))
}

type toolCache struct {
	mu sync.Mutex
	m  map[string]toolResult
}

type toolResult struct {
	tc  Toolchain
	err error
}

func newToolCache() *toolCache { return &toolCache{m: map[string]toolResult{}} }
