package main

import (
	"flag"
	"fmt"
	"runtime/debug"
)

var helpCommand = &command{
	name:    "help",
	summary: "show help for hipgen or one command",
	usage:   "help [command]",
}

// helpCommand's body looks commands up, and commands lists helpCommand, so
// the body is attached here to break the initialization cycle.
func init() { helpCommand.flags = helpFlags }

func helpFlags(fs *flag.FlagSet) func(e *env, args []string) int {
	{
		return func(e *env, args []string) int {
			if len(args) == 0 {
				printUsage(e.Stdout)
				return exitOK
			}
			if len(args) > 1 {
				return e.errorf(exitUsage, "help: want at most one command, got %d", len(args))
			}
			c := lookupCommand(args[0])
			if c == nil {
				msg := fmt.Sprintf("help: unknown command %q", args[0])
				if s := suggestCommand(args[0]); s != "" {
					msg += fmt.Sprintf(" (did you mean %q?)", s)
				}
				return e.errorf(exitUsage, "%s", msg)
			}
			fs := c.newFlagSet(e.Stdout)
			c.flags(fs)
			printCommandHelp(e.Stdout, c, fs)
			return exitOK
		}
	}
}

// version is set at link time with -ldflags "-X main.version=v1.2.3";
// otherwise it comes from the module's build information.
var version = ""

var versionCommand = &command{
	name:    "version",
	summary: "print hipgen's version",
	usage:   "version",
	flags: func(fs *flag.FlagSet) func(e *env, args []string) int {
		return func(e *env, args []string) int {
			if len(args) != 0 {
				return e.errorf(exitUsage, "version: takes no arguments")
			}
			v := version
			if v == "" {
				v = "devel"
				if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
					v = bi.Main.Version
				}
			}
			fmt.Fprintf(e.Stdout, "hipgen %s\n", v)
			return exitOK
		}
	},
}
