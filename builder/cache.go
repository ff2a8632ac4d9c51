package builder

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"github.com/hipgen/hipgen/internal/sha256"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The compile cache is content addressed and shared by every build on the
// machine. Its layout (version v1) under the cache directory:
//
//	v1/blobs/ab/abcdef...    file contents, named by their SHA-256
//	v1/actions/ab/abcd...    JSON: the recorded results of one action key
//	v1/tools/ab/abcd...      a compiler's version text, keyed by its file identity
//
// An action key covers the tool's path and version, every argument and the
// content of every input named up front. Compile actions also depend on the
// headers the compiler reported (-MD); those are only known after compiling,
// so an action record keeps several candidate results, each with the header
// set and content hashes it was compiled against, like ccache's manifests.
// Every file is written to a temporary name and renamed into place, so
// concurrent builds never see a partial file; two builds racing on the same
// record at worst lose one candidate, which costs a later recompile, never
// a wrong result.
const cacheVersion = "v1"

// maxCandidates bounds the results kept per action key.
const maxCandidates = 8

// DefaultCacheMaxBytes is the size cap used when none is configured.
const DefaultCacheMaxBytes = 5 << 30

// Cache is the content-addressed compile cache. Its methods are safe for
// concurrent use.
type Cache struct {
	dir      string // .../v1
	maxBytes int64

	hits, misses, bytesIn, bytesOut atomic.Int64
}

// CacheStats reports what one build did with the cache.
type CacheStats struct {
	Hits     int64 `json:"hits"`
	Misses   int64 `json:"misses"`
	BytesIn  int64 `json:"bytes_stored"`
	BytesOut int64 `json:"bytes_restored"`
	// Size and Files describe the whole cache after the build.
	Size  int64  `json:"size"`
	Files int64  `json:"files"`
	Dir   string `json:"dir"`
}

// ParseSize reads sizes such as "500M", "5G", "1024".
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(strings.ToUpper(s))
	t = strings.TrimSuffix(strings.TrimSuffix(t, "B"), "I")
	mult := int64(1)
	if n := len(t); n > 0 {
		switch t[n-1] {
		case 'K':
			mult, t = 1<<10, t[:n-1]
		case 'M':
			mult, t = 1<<20, t[:n-1]
		case 'G':
			mult, t = 1<<30, t[:n-1]
		case 'T':
			mult, t = 1<<40, t[:n-1]
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("bad size %q (want a number with an optional K, M, G or T suffix)", s)
	}
	return int64(v * float64(mult)), nil
}

// OpenCache opens (creating if needed) the cache under dir. maxBytes <= 0
// means DefaultCacheMaxBytes.
func OpenCache(dir string, maxBytes int64) (*Cache, error) {
	if maxBytes <= 0 {
		maxBytes = DefaultCacheMaxBytes
	}
	d := filepath.Join(dir, cacheVersion)
	for _, sub := range []string{"blobs", "actions", "tools"} {
		if err := os.MkdirAll(filepath.Join(d, sub), 0o755); err != nil {
			return nil, fmt.Errorf("compile cache: %w", err)
		}
	}
	tag := filepath.Join(dir, "CACHEDIR.TAG")
	if _, err := os.Stat(tag); err != nil {
		// The standard tag keeps backup tools out of the cache.
		_ = writeAtomic(tag, []byte("Signature: 8a477f597d28d172789f06886806bc55\n# hipgen compile cache; remove with 'hipgen clean --cache'.\n"), 0o644, true)
	}
	return &Cache{dir: d, maxBytes: maxBytes}, nil
}

// Dir returns the cache's root (the directory given to OpenCache).
func (c *Cache) Dir() string { return filepath.Dir(c.dir) }

func (c *Cache) path(kind, key string) string {
	return filepath.Join(c.dir, kind, key[:2], key)
}

// cachedOutput is one file an action produced.
type cachedOutput struct {
	Name string `json:"name"` // the output's role, e.g. "obj"
	Hash string `json:"hash"`
	Size int64  `json:"size"`
}

// cachedResult is one way an action key was satisfied.
type cachedResult struct {
	// Deps are the headers the compiler reported, with content hashes;
	// the result applies only while all of them still hash the same.
	Deps    [][2]string    `json:"deps,omitempty"`
	Outputs []cachedOutput `json:"outputs"`
	Stderr  string         `json:"stderr,omitempty"`
}

type actionRecord struct {
	Results []cachedResult `json:"results"`
}

// lookup returns the first recorded result of key whose dependencies all
// still hash the same under hashFile.
func (c *Cache) lookup(key string, hashFile func(string) (string, error)) (*cachedResult, bool) {
	data, err := os.ReadFile(c.path("actions", key))
	if err != nil {
		return nil, false
	}
	var rec actionRecord
	if json.Unmarshal(data, &rec) != nil {
		return nil, false // a damaged record is a miss, and is replaced on store
	}
next:
	for i := range rec.Results {
		r := &rec.Results[i]
		for _, d := range r.Deps {
			h, err := hashFile(d[0])
			if err != nil || h != d[1] {
				continue next
			}
		}
		for _, o := range r.Outputs {
			if _, err := os.Stat(c.path("blobs", o.Hash)); err != nil {
				continue next
			}
		}
		return r, true
	}
	return nil, false
}

// restore copies the blob hash to dst unless dst already holds it.
func (c *Cache) restore(hash string, size int64, dst string, perm os.FileMode) error {
	blob := c.path("blobs", hash)
	now := time.Now()
	_ = os.Chtimes(blob, now, now) // recency for the size cap's eviction order
	if st, err := os.Stat(dst); err == nil && st.Size() == size {
		if h, err := hashPath(dst); err == nil && h == hash {
			return nil
		}
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	data, err := os.ReadFile(blob)
	if err != nil {
		return err
	}
	c.bytesOut.Add(int64(len(data)))
	return writeAtomic(dst, data, perm, true)
}

// storeBlob copies the file at src into the cache and returns its hash.
func (c *Cache) storeBlob(src string) (cachedOutput, error) {
	data, err := os.ReadFile(src)
	if err != nil {
		return cachedOutput{}, err
	}
	sum := sha256.Sum256(data)
	h := hex.EncodeToString(sum[:])
	p := c.path("blobs", h)
	if _, err := os.Stat(p); err != nil {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return cachedOutput{}, err
		}
		if err := writeAtomic(p, data, 0o644, true); err != nil {
			return cachedOutput{}, err
		}
		c.bytesIn.Add(int64(len(data)))
	}
	return cachedOutput{Hash: h, Size: int64(len(data))}, nil
}

// store records r as the newest result of key.
func (c *Cache) store(key string, r cachedResult) error {
	p := c.path("actions", key)
	var rec actionRecord
	if data, err := os.ReadFile(p); err == nil {
		_ = json.Unmarshal(data, &rec)
	}
	rec.Results = slices.Insert(rec.Results, 0, r)
	if len(rec.Results) > maxCandidates {
		rec.Results = rec.Results[:maxCandidates]
	}
	data, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return writeAtomic(p, data, 0o644, true)
}

// Memo returns the text remembered under id, calling
// probe on a miss and remembering its result when it succeeds. It keeps
// compiler versions and toolchain checks, so a no-op build runs no tool.
func (c *Cache) Memo(id string, probe func() (string, error)) (string, error) {
	p := c.path("tools", keyOf("memo", id))
	if data, err := os.ReadFile(p); err == nil {
		return string(data), nil
	}
	v, err := probe()
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err == nil {
		_ = writeAtomic(p, []byte(v), 0o644, true)
	}
	return v, nil
}

// Stats returns the counters of this process and the cache's current size.
func (c *Cache) Stats() CacheStats {
	size, files := c.usage()
	return CacheStats{
		Hits: c.hits.Load(), Misses: c.misses.Load(),
		BytesIn: c.bytesIn.Load(), BytesOut: c.bytesOut.Load(),
		Size: size, Files: files, Dir: c.Dir(),
	}
}

type cacheFile struct {
	path  string
	size  int64
	mtime time.Time
}

func (c *Cache) files() []cacheFile {
	var out []cacheFile
	_ = filepath.WalkDir(c.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if info, err := d.Info(); err == nil {
			out = append(out, cacheFile{p, info.Size(), info.ModTime()})
		}
		return nil
	})
	return out
}

func (c *Cache) usage() (size, n int64) {
	for _, f := range c.files() {
		size += f.size
		n++
	}
	return size, n
}

// Trim removes the least recently used blobs until the cache is at most
// 90% of its cap. Records whose blobs are gone turn into misses.
func (c *Cache) Trim() (removed int64, err error) {
	fs := c.files()
	var total int64
	for _, f := range fs {
		total += f.size
	}
	if total <= c.maxBytes {
		return 0, nil
	}
	slices.SortFunc(fs, func(a, b cacheFile) int { return a.mtime.Compare(b.mtime) })
	target := c.maxBytes / 10 * 9
	for _, f := range fs {
		if total <= target {
			break
		}
		if os.Remove(f.path) == nil {
			total -= f.size
			removed += f.size
		}
	}
	return removed, nil
}

// Clean removes the whole cache.
func (c *Cache) Clean() error {
	return os.RemoveAll(filepath.Dir(c.dir))
}

// hashPath returns the hex SHA-256 of a file's content.
func hashPath(p string) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// fileHasher memoizes content hashes for one build: a header reached by many
// translation units is read once.
type fileHasher struct {
	mu   sync.Mutex
	memo map[string]*hashEntry
}

type hashEntry struct {
	once sync.Once
	hash string
	err  error
}

func newFileHasher() *fileHasher { return &fileHasher{memo: map[string]*hashEntry{}} }

// hash returns the content hash of path (absolute).
func (h *fileHasher) hash(path string) (string, error) {
	h.mu.Lock()
	e := h.memo[path]
	if e == nil {
		e = &hashEntry{}
		h.memo[path] = e
	}
	h.mu.Unlock()
	e.once.Do(func() { e.hash, e.err = hashPath(path) })
	return e.hash, e.err
}

// forget drops path from the memo (after the build rewrote it).
func (h *fileHasher) forget(path string) {
	h.mu.Lock()
	delete(h.memo, path)
	h.mu.Unlock()
}

// keyOf hashes the parts of an action key, each length-prefixed so that
// ("ab","c") and ("a","bc") differ.
func keyOf(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%d:%s\n", len(p), p)
	}
	return hex.EncodeToString(h.Sum(nil))
}
