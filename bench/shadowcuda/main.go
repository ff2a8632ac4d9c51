// Command shadowcuda writes an include directory that shadows every CUDA
// header in /usr/include with one that stops the compilation, so that the
// bench scripts compile translated code where no CUDA header can leak in.
// It is conformance.ShadowCUDAHeaders behind a command line.
//
// Usage: go run ./bench/shadowcuda DIR
package main

import (
	"fmt"
	"os"

	"github.com/hipgen/hipgen/conformance"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: shadowcuda DIR")
		os.Exit(2)
	}
	n, err := conformance.ShadowCUDAHeaders(os.Args[1], "/usr/include")
	if err != nil {
		fmt.Fprintf(os.Stderr, "shadowcuda: %v\n", err)
		os.Exit(1)
	}
	fmt.Printf("shadowcuda: %d CUDA headers shadowed in %s\n", n, os.Args[1])
}
