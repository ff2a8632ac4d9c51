package manifest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/hipgen/hipgen/internal/cachedir"
	"github.com/hipgen/hipgen/internal/rootpath"
	"github.com/hipgen/hipgen/internal/sysfile"
)

// The manifest is evaluated by a helper program, hipgen-jsonnet (package
// jsonnetvm), not in this process: go-jsonnet and what it imports take
// about half a millisecond to initialize, which every hipgen command would
// pay at start, 'hipgen translate -o DIR' without a manifest included. The
// helper's answer is cached (in the cache directory's manifests/, keyed by
// the helper, the project root, the file name and the source), with the
// content digest of every file the program imported: while none of them
// changes, hipgen reads the cached JSON and runs nothing, which also saves
// the generated build rules' 'hipgen translate --only' calls the
// evaluation.

// HelperName is the helper program's file name.
const HelperName = "hipgen-jsonnet"

// evaluate returns the JSON that the Jsonnet program src, named file (a
// slash path relative to root), evaluates to.
func evaluate(root, file string, src []byte) (string, error) {
	helper, err := FindHelper()
	if err != nil {
		return "", err
	}
	st, err := os.Stat(helper)
	if err != nil {
		return "", fmt.Errorf("%s: %v", HelperName, err)
	}
	key := sha256.New()
	fmt.Fprintf(key, "hipgen manifest cache 1\x00%s\x00%d\x00%d\x00%s\x00%s\x00", helper, st.Size(), st.ModTime().UnixNano(), root, file)
	key.Write(src)
	entry := ""
	if dir, err := cachedir.Default(os.Getenv); err == nil {
		entry = filepath.Join(dir, "manifests", hex.EncodeToString(key.Sum(nil)))
		if out, ok := cached(entry, root); ok {
			return out, nil
		}
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(helper, root, file)
	cmd.Stdin = bytes.NewReader(src)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%s: %v: %s", helper, err, strings.TrimSpace(stderr.String()))
	}
	var r struct {
		Output  string   `json:"output"`
		Imports []string `json:"imports"`
		Error   string   `json:"error"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
		return "", fmt.Errorf("%s: unreadable answer: %v", helper, err)
	}
	if r.Error != "" {
		return "", errors.New(r.Error)
	}
	if entry != "" {
		store(entry, root, r.Output, r.Imports)
	}
	return r.Output, nil
}

// FindHelper looks for hipgen-jsonnet where HIPGEN_JSONNET says, else
// beside the running program, else on PATH; the error says how to install
// it.
func FindHelper() (string, error) {
	if p := os.Getenv("HIPGEN_JSONNET"); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("HIPGEN_JSONNET=%s: no such file", p)
		}
		return p, nil
	}
	var beside string
	if self, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(self); err == nil {
			self = real
		}
		beside = filepath.Join(filepath.Dir(self), HelperName)
		if st, err := os.Stat(beside); err == nil && st.Mode().IsRegular() {
			return beside, nil
		}
	}
	if p, err := exec.LookPath(HelperName); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("%s, which evaluates the manifest, is neither beside this program (%s) nor on PATH: install it with 'go install github.com/hipgen/hipgen/cmd/...@latest' (or build it with 'go build -o DIR ./cmd/%s' into hipgen's directory), or name it in HIPGEN_JSONNET", HelperName, beside, HelperName)
}

// cacheEntry is a cached evaluation: the output and the imported files'
// SHA-256 digests.
type cacheEntry struct {
	Output  string            `json:"output"`
	Imports map[string]string `json:"imports"`
}

// cached returns the output recorded in the entry file when every file it
// imported still has the recorded content (and is still inside root).
func cached(entry, root string) (string, bool) {
	data, err := os.ReadFile(entry)
	if err != nil {
		return "", false
	}
	var c cacheEntry
	if err := json.Unmarshal(data, &c); err != nil {
		return "", false
	}
	for rel, sum := range c.Imports {
		if d, ok := importDigest(root, rel); !ok || d != sum {
			return "", false
		}
	}
	return c.Output, true
}

// store records an evaluation; the cache is an aid, so failing to write it
// is not an error.
func store(entry, root, out string, imports []string) {
	c := cacheEntry{Output: out, Imports: map[string]string{}}
	for _, rel := range imports {
		d, ok := importDigest(root, rel)
		if !ok {
			return
		}
		c.Imports[rel] = d
	}
	data, err := json.Marshal(&c)
	if err != nil {
		return
	}
	if os.MkdirAll(filepath.Dir(entry), 0o755) == nil {
		_ = sysfile.WriteAtomic(entry, data, 0o644, false)
	}
}

// importDigest returns the SHA-256 of the imported file rel, a slash path
// below root, if it is still a file inside root.
func importDigest(root, rel string) (string, bool) {
	full := filepath.Join(root, filepath.FromSlash(rel))
	if _, ok, err := rootpath.Within(root, full); err != nil || !ok {
		return "", false
	}
	data, err := os.ReadFile(full)
	if err != nil {
		return "", false
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), true
}
