package builder

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestLockTreeWaits holds a tree's lock and checks that a second taker
// says it is waiting, names the holder's pid, and gets the lock only
// after the first lets go.
func TestLockTreeWaits(t *testing.T) {
	root := t.TempDir()
	unlock1, err := lockTree(root, func(msg string) { t.Errorf("first lock waited: %s", msg) })
	if err != nil {
		t.Fatal(err)
	}
	notes := make(chan string, 1)
	got := make(chan func(), 1)
	go func() {
		unlock2, err := lockTree(root, func(msg string) { notes <- msg })
		if err != nil {
			t.Error(err)
			got <- func() {}
			return
		}
		got <- unlock2
	}()
	var msg string
	select {
	case msg = <-notes:
	case <-time.After(10 * time.Second):
		t.Fatal("second lock did not report waiting")
	}
	if !strings.Contains(msg, "waiting for another hipgen build (pid ") || !strings.Contains(msg, "build/hipgen/.lock") {
		t.Errorf("waiting note = %q", msg)
	}
	select {
	case <-got:
		t.Fatal("second lock taken while the first was held")
	case <-time.After(200 * time.Millisecond):
	}
	unlock1()
	select {
	case unlock2 := <-got:
		unlock2()
	case <-time.After(10 * time.Second):
		t.Fatal("second lock not taken after the first was released")
	}
}

// TestHolderPidWritten: a build that finds the lock taken before its holder
// wrote its pid (the file still empty) waits for the pid to appear.
func TestHolderPidWritten(t *testing.T) {
	p := filepath.Join(t.TempDir(), ".lock")
	if err := os.WriteFile(p, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(3 * time.Millisecond)
		os.WriteFile(p, []byte("4242\n"), 0o644)
	}()
	if pid := holderPid(p); pid != 4242 {
		t.Errorf("holderPid = %d, want 4242, written 3 ms after the look began", pid)
	}
	if err := os.WriteFile(p, []byte("not a pid"), 0o644); err != nil {
		t.Fatal(err)
	}
	if pid := holderPid(p); pid != 0 {
		t.Errorf("holderPid of a file without a pid = %d, want 0", pid)
	}
}
