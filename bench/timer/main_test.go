package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestTimesACommand runs a shell that sleeps, burns some CPU, writes to
// stdout and exits with a failure status: the line must hold a wall time
// at least the sleep's, a CPU time no larger than the wall time allows, and
// the output must be in the file asked for.
func TestTimesACommand(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.txt")
	var stdout, stderr bytes.Buffer
	script := `i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; sleep 0.05; pwd; echo $HIPGEN_TIMER_TEST; exit 3`
	code := run([]string{"-C", dir, "-o", out, "-env", "HIPGEN_TIMER_TEST=seen", "--", "/bin/sh", "-c", script}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
	fields := strings.Fields(stdout.String())
	if len(fields) != 2 {
		t.Fatalf("output %q: want two numbers", stdout.String())
	}
	wall, err1 := strconv.ParseFloat(fields[0], 64)
	cpu, err2 := strconv.ParseFloat(fields[1], 64)
	if err1 != nil || err2 != nil {
		t.Fatalf("output %q: want two numbers", stdout.String())
	}
	if wall < 0.05 || wall > 30 {
		t.Errorf("wall %v s: want at least the 0.05 s the command sleeps", wall)
	}
	if cpu <= 0 || cpu > wall+0.01 {
		t.Errorf("cpu %v s with wall %v s: want more than nothing (the loop) and no more than the wall time of one process", cpu, wall)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	realDir, _ := filepath.EvalSymlinks(dir)
	if want := realDir + "\nseen\n"; string(got) != want {
		t.Errorf("stdout file holds %q, want %q (the command's directory and environment)", got, want)
	}
}

func TestErrors(t *testing.T) {
	for _, args := range [][]string{
		{},                                       // no command
		{"--", filepath.Join(t.TempDir(), "no")}, // nothing to start
		{"-o", filepath.Join(t.TempDir(), "no", "such", "dir", "f"), "--", "/bin/true"},
		{"-bogus", "--", "/bin/true"},
	} {
		var stdout, stderr bytes.Buffer
		start := time.Now()
		if code := run(args, &stdout, &stderr); code != 2 {
			t.Errorf("timer %q: exit %d, want 2", args, code)
		}
		if stdout.Len() != 0 || stderr.Len() == 0 {
			t.Errorf("timer %q: stdout %q, stderr %q: want only an error", args, stdout.String(), stderr.String())
		}
		if time.Since(start) > 10*time.Second {
			t.Errorf("timer %q took too long", args)
		}
	}
}
