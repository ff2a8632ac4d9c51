package main

import (
	"bytes"
	"fmt"
	"path"
	"strings"

	"github.com/hipgen/hipgen/internal/lazyre"
)

// torchExtension is a PyTorch extension that a setup.py declares with
// CUDAExtension(name=..., sources=[...]): its module name and its sources
// (slash paths from the project root, in the order given).
type torchExtension struct {
	module  string
	setup   string // the setup.py, a slash path from the root
	sources []string
}

var (
	cudaExtensionRe = lazyre.New(`\bCUDAExtension\s*\(`)
	pyNameArgRe     = lazyre.New(`\bname\s*=\s*(?:"([^"\\\n]*)"|'([^'\\\n]*)')`)
	pySourcesArgRe  = lazyre.New(`\bsources\s*=\s*\[`)
	pyStringRe      = lazyre.New(`"([^"\\\n]*)"|'([^'\\\n]*)'`)
)

// torchExtensionsIn reads the setup.py files among files (slash paths from
// the reader's root) for CUDAExtension calls whose name and sources are written as
// string literals, and returns those whose sources all exist in the
// project (exists). A call whose arguments are computed (a glob, a
// variable) is left out: it cannot be read without running the file.
func torchExtensionsIn(reader *fileReader, files []string, exists func(string) bool) ([]torchExtension, error) {
	var out []torchExtension
	var setups []string
	for _, rel := range files {
		if path.Base(rel) == "setup.py" {
			setups = append(setups, rel)
		}
	}
	err := reader.buildFiles(setups, func(rel string, data []byte) {
		for _, m := range cudaExtensionRe.Get().FindAllIndex(data, -1) {
			args := pyCallArgs(data[m[1]:])
			ext, ok := readExtension(args, path.Dir(rel), exists)
			if ok {
				ext.setup = rel
				out = append(out, ext)
			}
		}
	})
	return out, err
}

// readExtension reads the name= and sources= arguments of one
// CUDAExtension call; dir is the setup.py's directory, which its paths are
// relative to.
func readExtension(args []byte, dir string, exists func(string) bool) (torchExtension, bool) {
	nm := pyNameArgRe.Get().FindSubmatch(args)
	src := pySourcesArgRe.Get().FindIndex(args)
	if nm == nil || src == nil {
		return torchExtension{}, false
	}
	end := bytes.IndexByte(args[src[1]:], ']')
	if end < 0 {
		return torchExtension{}, false
	}
	list := args[src[1] : src[1]+end]
	ext := torchExtension{module: string(nm[1]) + string(nm[2])}
	for _, s := range pyStringRe.Get().FindAllSubmatch(list, -1) {
		p := path.Join(dir, string(s[1])+string(s[2]))
		if !exists(p) {
			return torchExtension{}, false
		}
		ext.sources = append(ext.sources, p)
	}
	// Anything but literals and commas in the list (a call, a variable,
	// a + joining lists) means sources the file computes.
	rest := strings.TrimSpace(pyStringRe.Get().ReplaceAllString(string(list), ""))
	if strings.Trim(rest, ", \t\r\n") != "" || len(ext.sources) == 0 {
		return torchExtension{}, false
	}
	return ext, true
}

// pyCallArgs returns the text of a call's arguments, from just after its
// opening parenthesis to its closing one, skipping strings and comments;
// all of the rest where it is not closed.
func pyCallArgs(b []byte) []byte {
	depth := 1
	for i := 0; i < len(b); i++ {
		switch c := b[i]; c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth--; depth == 0 {
				return b[:i]
			}
		case '#':
			for i < len(b) && b[i] != '\n' {
				i++
			}
		case '"', '\'':
			for i++; i < len(b) && b[i] != c && b[i] != '\n'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
		}
	}
	return b
}

// write writes the extension as a starter manifest's target named name.
func (x torchExtension) write(b *bytes.Buffer, name string, incs []string, flags nvccFlags) {
	fmt.Fprintf(b, "    {\n      // CUDAExtension(name=%s) in %s.\n", quote(x.module), x.setup)
	fmt.Fprintf(b, "      name: %s,\n      kind: 'torch_extension',\n", quote(name))
	writeList(b, "srcs", x.sources)
	writeList(b, "includes", incs)
	flags.write(b)
	fmt.Fprintf(b, "    },\n")
}
