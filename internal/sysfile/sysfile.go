// Package sysfile reads and replaces whole files with plain system calls.
// The os package registers every file it opens with the runtime's network
// poller (four fcntl calls and a failing epoll_ctl for a regular file) and
// gives it a finalizer; for the hundreds of small files a translation reads
// and writes that is more system calls than the reads and writes
// themselves. Errors are *fs.PathError or *os.LinkError, as the os package
// returns them.
package sysfile

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"unsafe"
)

// Stamp identifies one version of a file by its status: a file that still
// has the same inode, size, modification and change times has not been
// rewritten (the change time cannot be set back by hand).
type Stamp struct {
	Ino, Size, Mtime, Ctime int64
}

// StampOf is the stamp of a file status.
func StampOf(st *syscall.Stat_t) Stamp {
	return Stamp{int64(st.Ino), st.Size, st.Mtim.Nano(), st.Ctim.Nano()}
}

// Stat is syscall.Stat with the os package's error.
func Stat(path string) (syscall.Stat_t, error) {
	var st syscall.Stat_t
	err := retry(func() error { return syscall.Stat(path, &st) })
	if err != nil {
		return st, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	return st, nil
}

// Lstat is syscall.Lstat with the os package's error.
func Lstat(path string) (syscall.Stat_t, error) {
	var st syscall.Stat_t
	err := retry(func() error { return syscall.Lstat(path, &st) })
	if err != nil {
		return st, &fs.PathError{Op: "lstat", Path: path, Err: err}
	}
	return st, nil
}

// IsRegular reports whether st is a regular file's status.
func IsRegular(st *syscall.Stat_t) bool { return st.Mode&syscall.S_IFMT == syscall.S_IFREG }

// IsDir reports whether st is a directory's status.
func IsDir(st *syscall.Stat_t) bool { return st.Mode&syscall.S_IFMT == syscall.S_IFDIR }

// IsLink reports whether st is a symbolic link's status.
func IsLink(st *syscall.Stat_t) bool { return st.Mode&syscall.S_IFMT == syscall.S_IFLNK }

// Read reads the whole file at path into buf's storage when it is large
// enough (else into a new slice) and returns the content with the file's
// status as it was read. With noFollow a symbolic link as the last element
// of path is not followed: the error then wraps syscall.ELOOP.
func Read(path string, noFollow bool, buf []byte) ([]byte, syscall.Stat_t, error) {
	var st syscall.Stat_t
	fd, err := openRead(path, noFollow)
	if err != nil {
		return nil, st, err
	}
	defer syscall.Close(fd)
	if err := retry(func() error { return syscall.Fstat(fd, &st) }); err != nil {
		return nil, st, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	data, err := readAll(fd, path, st.Size, buf)
	return data, st, err
}

// ReadSized is Read for a caller that knows the size of the file from a
// recent look-up: it reads all of the file whatever its size is now, with
// one system call fewer when the size is right, and returns no status.
func ReadSized(path string, noFollow bool, size int64, buf []byte) ([]byte, error) {
	fd, err := openRead(path, noFollow)
	if err != nil {
		return nil, err
	}
	defer syscall.Close(fd)
	return readAll(fd, path, size, buf)
}

func openRead(path string, noFollow bool) (int, error) {
	flags := syscall.O_RDONLY | syscall.O_CLOEXEC
	if noFollow {
		flags |= syscall.O_NOFOLLOW
	}
	fd, err := open(path, flags, 0)
	if err != nil {
		return -1, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return fd, nil
}

// readAll reads fd to its end. The buffer has room for one byte more than
// size, the file's expected size, so that the read that stops short at
// size is known to have reached the end without another returning
// nothing.
func readAll(fd int, path string, size int64, buf []byte) ([]byte, error) {
	if want := int(size) + 1; cap(buf) < want {
		buf = make([]byte, 0, max(want, 512))
	}
	data := buf[:0]
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := syscall.Read(fd, data[len(data):cap(data)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: path, Err: err}
		}
		if n == 0 {
			return data, nil
		}
		data = data[:len(data)+n]
		if len(data) == int(size) && len(data) < cap(data) {
			return data, nil
		}
	}
}

// WriteAtomic replaces the file at path with data: it writes a new
// temporary file beside it (named ".BASE.tmpDIGITS") with the mode perm,
// whatever the umask, flushes it to disk when sync is set and renames it over path, so a
// reader sees the old content or all of the new one, never part of it. The
// temporary file is removed on failure.
func WriteAtomic(path string, data []byte, perm os.FileMode, sync bool) (err error) {
	dir, base := filepath.Split(path)
	var fd int
	var tmp string
	for try := 0; ; try++ {
		tmp = dir + "." + base + ".tmp" + strconv.FormatUint(uint64(rand.Uint32()), 10)
		fd, err = open(tmp, syscall.O_WRONLY|syscall.O_CREAT|syscall.O_EXCL|syscall.O_CLOEXEC, uint32(perm.Perm()))
		if err == nil {
			break
		}
		if err != syscall.EEXIST || try == 10000 {
			return &fs.PathError{Op: "open", Path: tmp, Err: err}
		}
	}
	op := "write"
	for rest := data; len(rest) > 0; {
		n, werr := syscall.Write(fd, rest)
		if werr == syscall.EINTR {
			continue
		}
		if werr == nil && n == 0 {
			werr = io.ErrShortWrite
		}
		if werr != nil {
			err = werr
			break
		}
		rest = rest[n:]
	}
	if err == nil && !umaskKeeps(fd, perm) {
		op, err = "chmod", retry(func() error { return syscall.Fchmod(fd, uint32(perm.Perm())) })
	}
	if err == nil && sync {
		op, err = "sync", retry(func() error { return syscall.Fsync(fd) })
	}
	if cerr := syscall.Close(fd); err == nil && cerr != nil {
		op, err = "close", cerr
	}
	if err == nil {
		if err = retry(func() error { return syscall.Rename(tmp, path) }); err != nil {
			syscall.Unlink(tmp)
			return &os.LinkError{Op: "rename", Old: tmp, New: path, Err: err}
		}
		return nil
	}
	syscall.Unlink(tmp)
	return &fs.PathError{Op: op, Path: tmp, Err: err}
}

// umaskKept records, per permission, whether a file created with it has
// it, the process's umask clearing none of its bits; the first file
// created with a permission is asked, so the others need no chmod. hipgen
// never changes its umask.
var umaskKept sync.Map // os.FileMode -> bool

// umaskKeeps reports whether the file fd, just created with the mode
// perm, has that mode.
func umaskKeeps(fd int, perm os.FileMode) bool {
	if kept, ok := umaskKept.Load(perm); ok {
		return kept.(bool)
	}
	var st syscall.Stat_t
	if retry(func() error { return syscall.Fstat(fd, &st) }) != nil {
		return false
	}
	kept := os.FileMode(st.Mode).Perm() == perm.Perm()
	umaskKept.Store(perm, kept)
	return kept
}

// Mkdir makes the directory path (its parent must exist). It reports
// whether the directory was made: an existing directory, or a symbolic
// link to one, is no error.
func Mkdir(path string, perm os.FileMode) (made bool, err error) {
	err = retry(func() error { return syscall.Mkdir(path, uint32(perm.Perm())) })
	if err == nil {
		return true, nil
	}
	if err == syscall.EEXIST {
		if st, serr := Stat(path); serr == nil && IsDir(&st) {
			return false, nil
		}
		err = syscall.ENOTDIR
	}
	return false, &fs.PathError{Op: "mkdir", Path: path, Err: err}
}

func open(path string, flags int, perm uint32) (fd int, err error) {
	err = retry(func() error {
		fd, err = syscall.Open(path, flags, perm)
		return err
	})
	return fd, err
}

// retry calls f again while it is interrupted by a signal.
func retry(f func() error) error {
	for {
		if err := f(); !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

// DirEntry is one entry of a directory as ReadDir lists it.
type DirEntry struct {
	Name string
	// Type is the entry's file type (syscall.S_IFDIR, S_IFREG, S_IFLNK,
	// ...), as the directory records it, or found by lstat on a file
	// system that records none: a symbolic link is not followed.
	Type uint32
}

// IsDir reports whether the entry is a directory (not a link to one).
func (d DirEntry) IsDir() bool { return d.Type == syscall.S_IFDIR }

// IsLink reports whether the entry is a symbolic link.
func (d DirEntry) IsLink() bool { return d.Type == syscall.S_IFLNK }

// direntTypes maps the d_type of a directory entry to its file type.
var direntTypes = [...]uint32{
	syscall.DT_FIFO: syscall.S_IFIFO,
	syscall.DT_CHR:  syscall.S_IFCHR,
	syscall.DT_DIR:  syscall.S_IFDIR,
	syscall.DT_BLK:  syscall.S_IFBLK,
	syscall.DT_REG:  syscall.S_IFREG,
	syscall.DT_LNK:  syscall.S_IFLNK,
	syscall.DT_SOCK: syscall.S_IFSOCK,
}

// ReadDir lists the entries of the directory dir, without "." and "..",
// in the order the directory keeps them (not sorted), with plain system
// calls: os.ReadDir registers the directory with the runtime's poller
// first, which costs more calls than the listing of a small directory.
func ReadDir(dir string) ([]DirEntry, error) {
	fd, err := open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	defer syscall.Close(fd)
	var buf [8192]byte
	var out []DirEntry
	for {
		var n int
		err := retry(func() (err error) {
			n, err = syscall.ReadDirent(fd, buf[:])
			return err
		})
		if err != nil {
			return nil, &fs.PathError{Op: "readdirent", Path: dir, Err: err}
		}
		if n <= 0 {
			return out, nil
		}
		// struct linux_dirent64: ino (8), off (8), reclen (2), type
		// (1), then the name, NUL-terminated.
		for b := buf[:n]; len(b) >= 19; {
			reclen := int(binary.NativeEndian.Uint16(b[16:18]))
			if reclen < 19 || reclen > len(b) {
				return nil, &fs.PathError{Op: "readdirent", Path: dir, Err: syscall.EIO}
			}
			name := b[19:reclen]
			if i := bytes.IndexByte(name, 0); i >= 0 {
				name = name[:i]
			}
			typ := b[18]
			b = b[reclen:]
			if string(name) == "." || string(name) == ".." {
				continue
			}
			d := DirEntry{Name: string(name)}
			if int(typ) < len(direntTypes) {
				d.Type = direntTypes[typ]
			}
			if d.Type == 0 {
				st, err := Lstat(dir + string(os.PathSeparator) + d.Name)
				if err != nil {
					if errors.Is(err, fs.ErrNotExist) {
						continue // removed while listed
					}
					return nil, err
				}
				d.Type = st.Mode & syscall.S_IFMT
			}
			out = append(out, d)
		}
	}
}

// WriteBuffers writes bufs to w, in order, as one write of their
// concatenation would: to a file with writev system calls (one, unless
// the file takes less at a time), so that the pieces need not be copied
// into one buffer first; to another writer, piece by piece.
func WriteBuffers(w io.Writer, bufs [][]byte) error {
	f, ok := w.(*os.File)
	if !ok {
		for _, b := range bufs {
			if _, err := w.Write(b); err != nil {
				return err
			}
		}
		return nil
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	bufs = slices.Clone(bufs) // its first piece shrinks as it is written
	iov := make([]syscall.Iovec, 0, min(len(bufs), maxIovecs))
	var werr error
	err = rc.Write(func(fd uintptr) bool {
		for len(bufs) > 0 {
			iov = iov[:0]
			for _, b := range bufs[:min(len(bufs), maxIovecs)] {
				if len(b) > 0 {
					v := syscall.Iovec{Base: &b[0]}
					v.SetLen(len(b))
					iov = append(iov, v)
				}
			}
			if len(iov) == 0 {
				return true
			}
			n, _, e := syscall.Syscall(syscall.SYS_WRITEV, fd, uintptr(unsafe.Pointer(&iov[0])), uintptr(len(iov)))
			switch e {
			case 0:
			case syscall.EINTR:
				continue
			case syscall.EAGAIN:
				return false // the poller waits until the file takes more
			default:
				werr = &os.PathError{Op: "write", Path: f.Name(), Err: e}
				return true
			}
			// Drop what was written.
			for rest := int(n); rest > 0; {
				if k := len(bufs[0]); k <= rest {
					rest -= k
					bufs = bufs[1:]
				} else {
					bufs[0] = bufs[0][rest:]
					rest = 0
				}
			}
			for len(bufs) > 0 && len(bufs[0]) == 0 {
				bufs = bufs[1:]
			}
		}
		return true
	})
	runtime.KeepAlive(iov)
	return cmp.Or(werr, err)
}

// maxIovecs is the most buffers one writev takes (Linux's IOV_MAX).
const maxIovecs = 1024
