// Command hipgen-jsonnet evaluates a hipgen.jsonnet manifest for hipgen,
// which runs it (where HIPGEN_JSONNET says, else beside itself, else from
// PATH) and caches the result. It is not meant to be run by hand; install
// it beside hipgen:
//
//	go install github.com/hipgen/hipgen/cmd/...@latest
package main

import (
	"os"

	"github.com/hipgen/hipgen/manifest/jsonnetvm"
)

func main() {
	os.Exit(jsonnetvm.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
