package manifest

import (
	"bytes"
	"cmp"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/hipgen/hipgen/internal/sha256"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

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
// evaluation. The cache keeps the MaxCachedEvaluations entries used last:
// a hit refreshes its entry's time, and storing a new one removes the
// oldest beyond that number.

// MaxCachedEvaluations is how many evaluated manifests the cache keeps.
// Each edit of a manifest makes an entry; a project uses one at a time,
// so this is room for many projects and branches.
const MaxCachedEvaluations = 256

// HelperName is the helper program's file name.
const HelperName = "hipgen-jsonnet"

// HelperReply is what the helper prints on stdout: the evaluated JSON and
// the files the program imported (slash paths relative to the root), each
// with the ContentDigest of the bytes evaluated; or the evaluation error.
type HelperReply struct {
	Output  string            `json:"output,omitempty"`
	Imports map[string]string `json:"imports,omitempty"`
	Error   string            `json:"error,omitempty"`
}

// ContentDigest is how the cache tells a file's content: hex SHA-256.
func ContentDigest(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// evaluate returns the JSON that the Jsonnet program src, named file (a
// slash path relative to root), evaluates to.
func evaluate(root, file string, src []byte) (string, error) {
	helper, st, err := findHelper()
	if err != nil {
		return "", err
	}
	key := sha256.New()
	fmt.Fprintf(key, "hipgen manifest cache 1\x00%s\x00%d\x00%d\x00%s\x00%s\x00", helper, st.Size(), st.ModTime().UnixNano(), root, file)
	key.Write(src)
	entry := ""
	if dir, err := cachedir.Default(os.Getenv); err == nil {
		entry = filepath.Join(dir, "manifests", hex.EncodeToString(key.Sum(nil)))
		if out, ok := cached(entry, root); ok {
			now := time.Now()
			_ = os.Chtimes(entry, now, now) // recency for pruning (see store)
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
	var r HelperReply
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
		return "", fmt.Errorf("%s: unreadable answer: %v", helper, err)
	}
	if r.Error != "" {
		return "", errors.New(r.Error)
	}
	if entry != "" {
		store(entry, r)
	}
	return r.Output, nil
}

// FindHelper looks for hipgen-jsonnet where HIPGEN_JSONNET says, else
// beside the running program, else on PATH; the error says how to install
// it.
func FindHelper() (string, error) {
	p, _, err := findHelper()
	return p, err
}

// findHelper is FindHelper, with what the helper's stat said (the cache
// key holds its size and time).
func findHelper() (string, os.FileInfo, error) {
	if p := os.Getenv("HIPGEN_JSONNET"); p != "" {
		st, err := os.Stat(p)
		if err != nil {
			return "", nil, fmt.Errorf("HIPGEN_JSONNET=%s: no such file", p)
		}
		return p, st, nil
	}
	var beside string
	if self, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(self); err == nil {
			self = real
		}
		beside = filepath.Join(filepath.Dir(self), HelperName)
		if st, err := os.Stat(beside); err == nil && st.Mode().IsRegular() {
			return beside, st, nil
		}
	}
	if p, err := exec.LookPath(HelperName); err == nil {
		if st, err := os.Stat(p); err == nil {
			return p, st, nil
		}
	}
	return "", nil, fmt.Errorf("%s, which evaluates the manifest, is neither beside this program (%s) nor on PATH: install it with 'go install github.com/hipgen/hipgen/cmd/...@latest' (or build it with 'go build -o DIR ./cmd/%s' into hipgen's directory), or name it in HIPGEN_JSONNET", HelperName, beside, HelperName)
}

// cached returns the output recorded in the entry file (a HelperReply
// without an error) when every file it imported still has the recorded
// content (and is still inside root).
func cached(entry, root string) (string, bool) {
	data, err := os.ReadFile(entry)
	if err != nil {
		return "", false
	}
	var c HelperReply
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

// store records an evaluation, with the imports' digests of what the
// helper evaluated (a file edited since then no longer matches), and
// prunes the cache; the cache is an aid, so failing to write it is not an
// error.
func store(entry string, c HelperReply) {
	data, err := json.Marshal(&c)
	if err != nil {
		return
	}
	dir := filepath.Dir(entry)
	if os.MkdirAll(dir, 0o755) == nil && sysfile.WriteAtomic(entry, data, 0o644, false) == nil {
		prune(dir, MaxCachedEvaluations, time.Now())
	}
}

// prune removes from the cache directory dir the entries beyond the keep
// used last (by modification time), and temporary files that a writer
// which did not finish left behind more than an hour before now. Another
// process may prune at the same time: a file already gone is no error.
func prune(dir string, keep int, now time.Time) {
	list, err := os.ReadDir(dir)
	if err != nil || len(list) <= keep {
		return
	}
	type entry struct {
		path  string
		mtime time.Time
	}
	var entries []entry
	for _, d := range list {
		info, err := d.Info()
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		p := filepath.Join(dir, d.Name())
		if strings.HasPrefix(d.Name(), ".") { // sysfile.WriteAtomic's temporary name
			if now.Sub(info.ModTime()) > time.Hour {
				os.Remove(p)
			}
			continue
		}
		entries = append(entries, entry{p, info.ModTime()})
	}
	if len(entries) <= keep {
		return
	}
	// Newest first; equal times in name order, so that every process
	// pruning at once removes the same files.
	slices.SortFunc(entries, func(a, b entry) int {
		return cmp.Or(b.mtime.Compare(a.mtime), strings.Compare(a.path, b.path))
	})
	for _, e := range entries[keep:] {
		os.Remove(e.path)
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
	return ContentDigest(data), true
}
