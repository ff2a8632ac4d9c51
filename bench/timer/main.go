// Command timer runs one command and prints how long it took: the wall
// clock from just before the process is created to just after it has been
// waited for (its start and exit included), and the CPU time (user and
// system) it and its children used, both in seconds.
//
// The bench scripts time every tool through it, not through the shell's
// time keyword: a shell that times a command forks itself first, and that
// fork (a quarter of a millisecond on the bench machines) would be charged
// to the tool, a large share of a run that takes a few milliseconds and
// none of one that takes a second. timer creates the command's process
// directly, as a shell's exec would, with every file it needs opened before
// the clock starts.
//
// Usage: timer [-C DIR] [-o FILE] [-env KEY=VALUE]... -- COMMAND [ARG...]
//
// The command runs in DIR, with stdin from /dev/null, stdout to FILE (or
// /dev/null) and stderr to /dev/null, with KEY=VALUE added to the
// environment. Its exit status is not checked (hipgen exits 1 when it
// reports error diagnostics); a command that cannot be started is an
// error. The output is one line: "WALL CPU".
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

type envList []string

func (e *envList) String() string     { return fmt.Sprint(*e) }
func (e *envList) Set(v string) error { *e = append(*e, v); return nil }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("timer", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("C", "", "run the command in `dir`")
	out := fs.String("o", "", "write the command's standard output to `file`")
	var env envList
	fs.Var(&env, "env", "add `KEY=VALUE` to the command's environment (repeatable)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: timer [-C DIR] [-o FILE] [-env KEY=VALUE]... -- COMMAND [ARG...]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	cmd := exec.Command(fs.Arg(0), fs.Args()[1:]...)
	cmd.Dir = *dir
	cmd.Env = append(os.Environ(), env...)
	// Every file is open before the clock starts.
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		fmt.Fprintf(stderr, "timer: %v\n", err)
		return 2
	}
	defer null.Close()
	cmd.Stdin, cmd.Stdout, cmd.Stderr = null, null, null
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			fmt.Fprintf(stderr, "timer: %v\n", err)
			return 2
		}
		defer f.Close()
		cmd.Stdout = f
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(stderr, "timer: %v\n", err)
		return 2
	}
	cmd.Wait() // the status is the tool's business (see above)
	wall := time.Since(start)
	var cpu time.Duration
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		cpu = time.Duration(syscall.TimevalToNsec(ru.Utime) + syscall.TimevalToNsec(ru.Stime))
	}
	fmt.Fprintf(stdout, "%.6f %.6f\n", wall.Seconds(), cpu.Seconds())
	return 0
}
