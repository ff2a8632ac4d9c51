package sysfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
)

func TestReadReusesBufferAndRefusesLinks(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.cu")
	want := strings.Repeat("x", 5000)
	if err := os.WriteFile(p, []byte(want), 0o644); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 0, 8192)
	data, st, err := Read(p, true, buf)
	if err != nil || string(data) != want || st.Size != 5000 {
		t.Fatalf("Read = %d bytes, size %d, %v", len(data), st.Size, err)
	}
	if &data[:1][0] != &buf[:1][0] {
		t.Error("a big enough buffer was not reused")
	}
	if data, _, err := Read(p, false, nil); err != nil || string(data) != want {
		t.Fatalf("Read without a buffer = %d bytes, %v", len(data), err)
	}
	if err := os.Symlink(p, filepath.Join(dir, "link.cu")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Read(filepath.Join(dir, "link.cu"), true, nil); !errors.Is(err, syscall.ELOOP) {
		t.Errorf("Read of a link without following it: %v, want ELOOP", err)
	}
	if data, _, err := Read(filepath.Join(dir, "link.cu"), false, nil); err != nil || string(data) != want {
		t.Errorf("Read through a link = %d bytes, %v", len(data), err)
	}
	if _, _, err := Read(filepath.Join(dir, "missing"), true, nil); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Read of a missing file: %v, want ErrNotExist", err)
	}
	if _, _, err := Read(dir, true, nil); err == nil {
		t.Error("Read of a directory succeeded")
	}
}

func TestWriteAtomicReplacesAndCleansUp(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.hip")
	for _, content := range []string{"first\n", "second, longer\n", ""} {
		if err := WriteAtomic(p, []byte(content), 0o640, false); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(p)
		if err != nil || string(got) != content {
			t.Fatalf("after writing %q: %q, %v", content, got, err)
		}
		st, _ := os.Stat(p)
		if st.Mode().Perm() != 0o640 {
			t.Errorf("mode %v, want 0640", st.Mode().Perm())
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("directory holds %v, want only out.hip", entries)
	}
	// A failed rename (over a non-empty directory) leaves no temporary file.
	if err := os.MkdirAll(filepath.Join(dir, "d", "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := WriteAtomic(filepath.Join(dir, "d"), []byte("x"), 0o644, true); err == nil {
		t.Error("renaming over a directory succeeded")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("temporary file left behind: %v", entries)
	}
}

func TestWriteAtomicModeDespiteUmask(t *testing.T) {
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	p := filepath.Join(t.TempDir(), "f")
	for i := 0; i < 2; i++ { // the second time, what the first learnt
		if err := WriteAtomic(p, []byte("x"), 0o604, false); err != nil {
			t.Fatal(err)
		}
		if st, _ := os.Stat(p); st.Mode().Perm() != 0o604 {
			t.Errorf("mode %v, want 0604", st.Mode().Perm())
		}
	}
}

func TestReadSized(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, size := range []int64{0, 3, 10, 11, 100} { // wrong sizes only cost a read
		if data, err := ReadSized(p, true, size, nil); err != nil || string(data) != "0123456789" {
			t.Errorf("ReadSized with size %d = %q, %v", size, data, err)
		}
	}
}

func TestMkdir(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a")
	if made, err := Mkdir(p, 0o755); !made || err != nil {
		t.Fatalf("Mkdir = %v, %v", made, err)
	}
	if made, err := Mkdir(p, 0o755); made || err != nil {
		t.Fatalf("Mkdir of an existing directory = %v, %v", made, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "f"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Mkdir(filepath.Join(dir, "f"), 0o755); !errors.Is(err, syscall.ENOTDIR) {
		t.Errorf("Mkdir over a file: %v, want ENOTDIR", err)
	}
	if _, err := Mkdir(filepath.Join(dir, "missing", "b"), 0o755); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Mkdir without a parent: %v, want ErrNotExist", err)
	}
}

// TestReadDir lists a directory with every kind of entry the walk cares
// about, enough of them to take several getdents calls, and a missing one.
func TestReadDir(t *testing.T) {
	dir := t.TempDir()
	want := map[string]uint32{"sub": syscall.S_IFDIR, "link": syscall.S_IFLNK, ".hidden": syscall.S_IFREG}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("sub", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 300; i++ { // 300 long names fill more than one buffer
		name := fmt.Sprintf("file-with-a-rather-long-name-%03d.cu", i)
		want[name] = syscall.S_IFREG
	}
	for name, typ := range want {
		if typ == syscall.S_IFREG {
			if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	entries, err := ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]uint32{}
	for _, d := range entries {
		if _, dup := got[d.Name]; dup {
			t.Errorf("%s listed twice", d.Name)
		}
		got[d.Name] = d.Type
	}
	if !maps.Equal(got, want) {
		t.Errorf("ReadDir: %d entries, want %d; differing: %v", len(got), len(want), diffKeys(got, want))
	}
	if d := entries[0]; d.IsDir() != (d.Type == syscall.S_IFDIR) || d.IsLink() != (d.Type == syscall.S_IFLNK) {
		t.Errorf("IsDir/IsLink disagree with Type for %+v", d)
	}
	if _, err := ReadDir(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing directory: err = %v, want not exist", err)
	}
	if _, err := ReadDir(filepath.Join(dir, ".hidden")); !errors.Is(err, syscall.ENOTDIR) {
		t.Errorf("a file: err = %v, want ENOTDIR", err)
	}
}

func diffKeys(a, b map[string]uint32) []string {
	var d []string
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			d = append(d, k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			d = append(d, k)
		}
	}
	sort.Strings(d)
	return d
}

func TestWriteBuffers(t *testing.T) {
	// 3000 pieces of varied sizes, some empty: more than one writev
	// takes, and more bytes than a pipe holds.
	var bufs [][]byte
	var want []byte
	for i := range 3000 {
		b := bytes.Repeat([]byte{byte('a' + i%26)}, (i*37)%300)
		bufs = append(bufs, b)
		want = append(want, b...)
	}
	t.Run("file", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "out")
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := WriteBuffers(f, bufs); err != nil {
			t.Fatal(err)
		}
		f.Close()
		if got, _ := os.ReadFile(p); !bytes.Equal(got, want) {
			t.Errorf("file holds %d bytes, want %d", len(got), len(want))
		}
	})
	t.Run("pipe", func(t *testing.T) {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		got := make(chan []byte)
		go func() {
			b, _ := io.ReadAll(r)
			got <- b
		}()
		if err := WriteBuffers(w, bufs); err != nil {
			t.Fatal(err)
		}
		w.Close()
		if b := <-got; !bytes.Equal(b, want) {
			t.Errorf("pipe carried %d bytes, want %d", len(b), len(want))
		}
	})
	t.Run("writer", func(t *testing.T) {
		var b bytes.Buffer
		if err := WriteBuffers(&b, bufs); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b.Bytes(), want) {
			t.Errorf("buffer holds %d bytes, want %d", b.Len(), len(want))
		}
	})
	t.Run("closed", func(t *testing.T) {
		_, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		w.Close()
		if err := WriteBuffers(w, bufs); err == nil {
			t.Error("writing to a closed file did not fail")
		}
	})
}
