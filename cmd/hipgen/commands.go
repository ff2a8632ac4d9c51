package main

import (
	"errors"
	"flag"
	"fmt"
	"github.com/hipgen/hipgen/internal/textdist"
	"io"
	"strings"
)

// command is one subcommand. Each lives in its own file and is listed once
// in commands below; adding a subcommand is a new file and one line here.
type command struct {
	name    string
	summary string // one line for 'hipgen help'
	usage   string // first usage line, after "hipgen "
	long    string // paragraphs for 'hipgen help <name>'
	// moreLong, when set, returns text appended to long. It is built only
	// when the help is shown: package variables are initialised at every
	// start, and formatting this text there cost each run 0.05-0.1 ms.
	moreLong func() string
	// flags declares the subcommand's flags on fs and returns the function
	// that runs it with the remaining arguments.
	flags func(fs *flag.FlagSet) func(e *env, args []string) int
}

// commands is the fixed registration list, in the order 'hipgen help' shows.
var commands = []*command{
	initCommand,
	manifestCommand,
	translateCommand,
	generateCommand,
	buildCommand,
	testCommand,
	cleanCommand,
	archCommand,
	doctorCommand,
	versionCommand,
	helpCommand,
}

func lookupCommand(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

func suggestCommand(name string) string {
	var names []string
	for _, c := range commands {
		names = append(names, c.name)
	}
	return textdist.Closest(name, names)
}

// newFlagSet returns the FlagSet for c, printing c's help on -h.
func (c *command) newFlagSet(stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("hipgen "+c.name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { printCommandHelp(stderr, c, fs) }
	return fs
}

func (c *command) run(e *env, args []string) int {
	fs := c.newFlagSet(e.Stderr)
	body := c.flags(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	return body(e, fs.Args())
}

func printUsage(w io.Writer) {
	fmt.Fprintf(w, "hipgen builds one repository's GPU code for NVIDIA (CUDA) and AMD (ROCm/HIP).\n\n")
	fmt.Fprintf(w, "Usage:\n\n\thipgen [-C dir] <command> [arguments]\n\nCommands:\n\n")
	for _, c := range commands {
		fmt.Fprintf(w, "\t%-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "\nRun 'hipgen help <command>' for details. Exit codes: 0 ok, 1 failures found, 2 usage or input error.\n")
}

func printCommandHelp(w io.Writer, c *command, fs *flag.FlagSet) {
	fmt.Fprintf(w, "usage: hipgen %s\n\n", c.usage)
	long := c.long
	if c.moreLong != nil {
		long += c.moreLong()
	}
	if long != "" {
		fmt.Fprintf(w, "%s\n", strings.TrimSpace(long))
	}
	var b strings.Builder
	fs.SetOutput(&b)
	fs.PrintDefaults()
	fs.SetOutput(w)
	if b.Len() > 0 {
		fmt.Fprintf(w, "\nFlags:\n%s", b.String())
	}
}

// notImplemented is the body of subcommands whose issue has not landed.
func notImplemented(name string) func(fs *flag.FlagSet) func(e *env, args []string) int {
	return func(fs *flag.FlagSet) func(e *env, args []string) int {
		return func(e *env, args []string) int {
			return e.errorf(exitUsage, "%s: not implemented yet", name)
		}
	}
}
