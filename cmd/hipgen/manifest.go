package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"

	"github.com/hipgen/hipgen/manifest"
	"github.com/hipgen/hipgen/model"
)

var manifestCommand = &command{
	name:    "manifest",
	summary: "print the evaluated, validated manifest as JSON",
	usage:   "manifest",
	long: `
Evaluates hipgen.jsonnet, validates it, expands every glob and prints the
resulting project as JSON: what every other command works from. Paths are
relative to the project root and lists are sorted, so the output is the same
on every run and machine. Useful for debugging Jsonnet and globs.
`,
	flags: func(fs *flag.FlagSet) func(e *env, args []string) int {
		return func(e *env, args []string) int {
			if len(args) != 0 {
				return e.errorf(exitUsage, "manifest: takes no arguments")
			}
			p, code := loadProject(e)
			if p == nil {
				return code
			}
			out, err := json.MarshalIndent(p, "", "  ")
			if err != nil {
				return e.errorf(exitUsage, "manifest: %v", err)
			}
			fmt.Fprintf(e.Stdout, "%s\n", out)
			return exitOK
		}
	},
}

// loadProject loads the manifest in e.Dir. On failure it prints every
// error, one per line, and returns a nil project with exitUsage.
func loadProject(e *env) (*model.Project, int) {
	p, err := manifest.Load(e.Dir)
	if err != nil {
		var list manifest.ErrorList
		if errors.As(err, &list) {
			for _, le := range list {
				fmt.Fprintln(e.Stderr, le.Error())
			}
			if len(list) > 1 {
				fmt.Fprintf(e.Stderr, "hipgen: %d errors in %s\n", len(list), list[0].File)
			}
		} else {
			fmt.Fprintf(e.Stderr, "hipgen: %v\n", err)
		}
		return nil, exitUsage
	}
	return p, exitOK
}
