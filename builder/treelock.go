package builder

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// lockTree takes the build tree's lock, build/hipgen/.lock, waiting (and
// saying so through note) while another hipgen build or test of the same
// tree holds it. Builds of one tree run one after the other: the second
// then finds the first one's results in place or in the cache, where two
// interleaved builds could each replace files the other had just hashed
// (nvcc's objects are not byte-identical from run to run, so the last
// writer decides what a later build sees). The lock is the kernel's
// (flock), so a build that dies releases it. The returned function
// releases it.
func lockTree(root string, note func(string)) (func(), error) {
	dir := filepath.Join(root, filepath.FromSlash(OutDir))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	p := filepath.Join(dir, ".lock")
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	fd := int(f.Fd())
	err = syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		who := "another hipgen build"
		if pid := holderPid(p); pid > 0 {
			who += fmt.Sprintf(" (pid %d)", pid)
		}
		note(fmt.Sprintf("waiting for %s of this tree to finish (%s)", who, filepath.ToSlash(filepath.Join(OutDir, ".lock"))))
		err = syscall.Flock(fd, syscall.LOCK_EX)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("locking %s: %w", p, err)
	}
	// The holder's pid, for the message above; a stale one is harmless.
	if f.Truncate(0) == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return func() {
		_ = syscall.Flock(fd, syscall.LOCK_UN)
		f.Close()
	}, nil
}

// holderPid returns the pid that the lock's holder wrote into the lock
// file p, or 0. The holder writes it just after taking the lock, so a
// build that finds the lock taken at that moment reads an empty file: it
// looks again for a few milliseconds.
func holderPid(p string) int {
	for try := 0; try < 20; try++ {
		if try > 0 {
			time.Sleep(time.Millisecond)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return 0
		}
		if pid, err := strconv.Atoi(string(bytes.TrimSpace(data))); err == nil && pid > 0 {
			return pid
		}
	}
	return 0
}
