package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/hipgen/hipgen/builder"
)

var cleanCommand = &command{
	name:    "clean",
	summary: "remove build outputs and the compile cache",
	usage:   "clean [--cache | --cache-only | --trim]",
	long: `
Removes the project's build outputs (build/hipgen). The translated tree
(translate.out) is left alone: it is a generated source tree that projects
may commit. With --cache it also empties the compile cache shared by all
projects ($HIPGEN_CACHE_DIR, else $XDG_CACHE_HOME/hipgen, else
~/.cache/hipgen), with the manifest evaluations cached beside it (of which
only the 256 used last are ever kept); --cache-only empties only the cache;
--trim only shrinks the compile cache below its size cap (--cache-max,
$HIPGEN_CACHE_MAX, default 5G), least recently used first.
`,
	flags: func(fs *flag.FlagSet) func(e *env, args []string) int {
		cache := fs.Bool("cache", false, "also empty the compile cache")
		cacheOnly := fs.Bool("cache-only", false, "empty the compile cache, keep build outputs")
		trim := fs.Bool("trim", false, "shrink the compile cache to its size cap, keep build outputs")
		cacheMax := fs.String("cache-max", "", "size cap for --trim, such as 2G")
		return func(e *env, args []string) int {
			if len(args) != 0 {
				return e.errorf(exitUsage, "clean: takes no arguments")
			}
			if *trim || *cache || *cacheOnly {
				c, err := openCache(e, *cacheMax)
				if err != nil {
					return e.errorf(exitUsage, "clean: %v", err)
				}
				if *trim {
					n, err := c.Trim()
					if err != nil {
						return e.errorf(exitFailures, "clean: %v", err)
					}
					fmt.Fprintf(e.Stdout, "removed %s from the compile cache at %s\n", humanBytes(n), c.Dir())
					return exitOK
				}
				st := c.Stats()
				if err := c.Clean(); err != nil {
					return e.errorf(exitFailures, "clean: %v", err)
				}
				fmt.Fprintf(e.Stdout, "removed the compile cache at %s (%s)\n", st.Dir, humanBytes(st.Size))
				if *cacheOnly {
					return exitOK
				}
			}
			p, code := loadProject(e)
			if p == nil {
				return code
			}
			out := filepath.Join(p.Root, filepath.FromSlash(builder.OutDir))
			if _, err := os.Stat(out); err != nil {
				fmt.Fprintf(e.Stdout, "nothing to clean in %s\n", builder.OutDir)
				return exitOK
			}
			if err := os.RemoveAll(out); err != nil {
				return e.errorf(exitFailures, "clean: %v", err)
			}
			fmt.Fprintf(e.Stdout, "removed %s\n", builder.OutDir)
			return exitOK
		}
	},
}
