// Command hipgen builds one repository's GPU code for NVIDIA (CUDA) and AMD
// (ROCm/HIP) side by side. main is a thin shell: it parses the global flags,
// picks a subcommand and hands it an env that carries every outside-world
// dependency, so tests run the same code in process.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Exit codes shared by every subcommand.
const (
	exitOK       = 0 // success
	exitFailures = 1 // the command ran and found failures (error diagnostics, stale files, failed tests)
	exitUsage    = 2 // bad usage or bad input (manifest errors, unknown flags)
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// env is everything a subcommand may touch outside its arguments.
type env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// Dir is the absolute directory hipgen runs in (after -C).
	Dir string
	// Getenv reads the process environment; tests may replace it.
	Getenv func(string) string
	// Environ is the full environment passed to child processes.
	Environ []string
}

// errorf prints "hipgen <cmd>: msg" to stderr and returns code.
func (e *env) errorf(code int, format string, args ...any) int {
	fmt.Fprintf(e.Stderr, "hipgen: "+format+"\n", args...)
	return code
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("hipgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("C", "", "run as if hipgen was started in `dir`")
	fs.Usage = func() { printUsage(stderr) }
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(stderr, "hipgen: %v\n", err)
		return exitUsage
	}
	if *dir != "" {
		d := *dir
		if !filepath.IsAbs(d) {
			d = filepath.Join(wd, d)
		}
		st, err := os.Stat(d)
		if err != nil || !st.IsDir() {
			fmt.Fprintf(stderr, "hipgen: -C %s: not a directory\n", *dir)
			return exitUsage
		}
		wd = d
	}
	e := &env{
		Stdin:   stdin,
		Stdout:  stdout,
		Stderr:  stderr,
		Dir:     wd,
		Getenv:  os.Getenv,
		Environ: os.Environ(),
	}
	rest := fs.Args()
	if len(rest) == 0 {
		printUsage(stderr)
		return exitUsage
	}
	name := rest[0]
	cmd := lookupCommand(name)
	if cmd == nil {
		fmt.Fprintf(stderr, "hipgen: unknown command %q\n", name)
		if s := suggestCommand(name); s != "" {
			fmt.Fprintf(stderr, "hipgen: did you mean %q?\n", s)
		}
		fmt.Fprintf(stderr, "Run 'hipgen help' for usage.\n")
		return exitUsage
	}
	return cmd.run(e, rest[1:])
}
