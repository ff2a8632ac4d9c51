package builder

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"
	"unicode/utf8"
)

// Test statuses.
const (
	TestPass    = "pass"
	TestFail    = "fail"
	TestSkip    = "skip"
	TestTimeout = "timeout"
	TestCrash   = "crash"
	TestNotRun  = "not built"
)

// SkipExitCode is the exit status by which a test says it cannot run here,
// for example because no GPU was found (the Automake convention).
const SkipExitCode = 77

// TestResult is one test binary run on one platform.
type TestResult struct {
	Platform Platform `json:"platform"`
	Target   string   `json:"target"`
	Status   string   `json:"status"`
	// Reason explains a skip, failure, crash or timeout in one line.
	Reason   string  `json:"reason,omitempty"`
	Seconds  float64 `json:"seconds"`
	ExitCode int     `json:"exit_code"`
	Output   string  `json:"output,omitempty"`
}

// TestOptions controls RunTests.
type TestOptions struct {
	Root    string
	Timeout time.Duration
	Environ []string
	// OutputLimit caps the output kept per test (default 64 KiB).
	OutputLimit int
}

// RunTest runs one built test binary and classifies its outcome. Tests run
// one at a time: they usually want the whole GPU.
func RunTest(ctx context.Context, o TestOptions, a Artifact) TestResult {
	r := TestResult{Platform: a.Platform, Target: a.Target}
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	bin := filepath.Join(o.Root, filepath.FromSlash(a.Path))
	cmd := exec.CommandContext(ctx, bin)
	cmd.Dir = o.Root
	cmd.Env = o.Environ
	// Its own process group, so a timeout also ends what the test started.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 2 * time.Second
	limit := o.OutputLimit
	if limit <= 0 {
		limit = 64 << 10
	}
	out := &capWriter{limit: limit}
	cmd.Stdout, cmd.Stderr = out, out
	t0 := time.Now()
	err := cmd.Run()
	r.Seconds = time.Since(t0).Seconds()
	r.Output = out.String()
	var ee *exec.ExitError
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		r.Status, r.ExitCode = TestTimeout, -1
		r.Reason = fmt.Sprintf("timed out after %s (raise it with --timeout)", o.Timeout)
	case err == nil:
		r.Status = TestPass
	case errors.As(err, &ee):
		ws, _ := ee.Sys().(syscall.WaitStatus)
		switch {
		case ws.Signaled():
			r.Status, r.ExitCode = TestCrash, -1
			r.Reason = fmt.Sprintf("crashed: killed by signal %s", ws.Signal())
		case ee.ExitCode() == SkipExitCode:
			r.Status, r.ExitCode = TestSkip, SkipExitCode
			r.Reason = lastLine(r.Output)
			if r.Reason == "" {
				r.Reason = "exit status 77 (the test could not run here)"
			}
		default:
			r.Status, r.ExitCode = TestFail, ee.ExitCode()
			r.Reason = fmt.Sprintf("exit status %d", ee.ExitCode())
			if l := lastLine(r.Output); l != "" {
				r.Reason += ": " + l
			}
		}
	default:
		r.Status, r.ExitCode = TestCrash, -1
		r.Reason = fmt.Sprintf("could not start: %v", err)
	}
	return r
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

type capWriter struct {
	buf   bytes.Buffer
	limit int
	cut   bool
}

func (w *capWriter) Write(p []byte) (int, error) {
	if room := w.limit - w.buf.Len(); room > 0 {
		w.buf.Write(p[:min(room, len(p))])
	}
	if w.buf.Len() >= w.limit {
		w.cut = true
	}
	return len(p), nil
}

func (w *capWriter) String() string {
	if w.cut {
		return w.buf.String() + "\n[output truncated]\n"
	}
	return w.buf.String()
}

// WriteTestSummary prints one table per platform and a totals line.
func WriteTestSummary(w io.Writer, results []TestResult) {
	var platforms []Platform
	seen := map[Platform]bool{}
	for _, r := range results {
		if !seen[r.Platform] {
			seen[r.Platform] = true
			platforms = append(platforms, r.Platform)
		}
	}
	for _, p := range platforms {
		fmt.Fprintf(w, "\n%s:\n", p)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "  TEST\tSTATUS\tTIME\tDETAIL\n")
		for _, r := range results {
			if r.Platform == p {
				fmt.Fprintf(tw, "  %s\t%s\t%.2fs\t%s\n", r.Target, strings.ToUpper(r.Status), r.Seconds, r.Reason)
			}
		}
		tw.Flush()
	}
	counts := map[string]int{}
	for _, r := range results {
		counts[r.Status]++
	}
	fmt.Fprintf(w, "\n%d passed, %d failed, %d skipped, %d timed out, %d crashed, %d not built\n",
		counts[TestPass], counts[TestFail], counts[TestSkip], counts[TestTimeout], counts[TestCrash], counts[TestNotRun])
}

// TestsFailed reports whether any result is a failure of some kind.
func TestsFailed(results []TestResult) bool {
	for _, r := range results {
		if r.Status != TestPass && r.Status != TestSkip {
			return true
		}
	}
	return false
}

// The JUnit document. The struct tags say what appendXML writes; the
// tests check that it is what encoding/xml makes of them.
type junitSuites struct {
	Suites []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitMessage `xml:"failure,omitempty"`
	Error     *junitMessage `xml:"error,omitempty"`
	Skipped   *junitMessage `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",chardata"`
}

// WriteJUnit writes results as JUnit XML, one test suite per platform,
// the format CI systems (GitLab, Jenkins, GitHub actions) read.
func WriteJUnit(path string, project string, results []TestResult) error {
	var doc junitSuites
	index := map[Platform]int{}
	for _, r := range results {
		i, ok := index[r.Platform]
		if !ok {
			i = len(doc.Suites)
			index[r.Platform] = i
			doc.Suites = append(doc.Suites, junitSuite{Name: project + "/" + string(r.Platform)})
		}
		s := &doc.Suites[i]
		c := junitCase{Name: r.Target, Classname: project + "." + string(r.Platform), Time: fmt.Sprintf("%.3f", r.Seconds), SystemOut: r.Output}
		switch r.Status {
		case TestFail:
			c.Failure = &junitMessage{Message: r.Reason, Type: "failure"}
			s.Failures++
		case TestSkip:
			c.Skipped = &junitMessage{Message: r.Reason}
			s.Skipped++
		case TestPass:
		default:
			c.Error = &junitMessage{Message: r.Reason, Type: r.Status}
			s.Errors++
		}
		s.Tests++
		s.Cases = append(s.Cases, c)
	}
	for i := range doc.Suites {
		var t float64
		for _, c := range doc.Suites[i].Cases {
			var x float64
			fmt.Sscan(c.Time, &x)
			t += x
		}
		doc.Suites[i].Time = fmt.Sprintf("%.3f", t)
	}
	data := append(doc.appendXML([]byte(xmlHeader)), '\n')
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return writeAtomic(path, data, 0o644, true)
}

// xmlHeader is encoding/xml's Header.
const xmlHeader = `<?xml version="1.0" encoding="UTF-8"?>` + "\n"

// appendXML appends the document as xml.MarshalIndent(doc, "", "  ")
// writes it, with <testsuites> as the root. It is written by hand because
// encoding/xml builds its tables when any hipgen command starts (1.9% of
// the instructions 'hipgen version' runs); TestJUnitXML checks that the
// bytes are those of encoding/xml.
func (d junitSuites) appendXML(b []byte) []byte {
	b = append(b, "<testsuites>"...)
	for _, s := range d.Suites {
		b = append(b, "\n  <testsuite"...)
		b = appendAttr(b, "name", s.Name)
		b = appendAttr(b, "tests", strconv.Itoa(s.Tests))
		b = appendAttr(b, "failures", strconv.Itoa(s.Failures))
		b = appendAttr(b, "errors", strconv.Itoa(s.Errors))
		b = appendAttr(b, "skipped", strconv.Itoa(s.Skipped))
		b = appendAttr(b, "time", s.Time)
		b = append(b, '>')
		for _, c := range s.Cases {
			b = append(b, "\n    <testcase"...)
			b = appendAttr(b, "name", c.Name)
			b = appendAttr(b, "classname", c.Classname)
			b = appendAttr(b, "time", c.Time)
			b = append(b, '>')
			nested := false
			for _, m := range []struct {
				tag string
				msg *junitMessage
			}{{"failure", c.Failure}, {"error", c.Error}, {"skipped", c.Skipped}} {
				if m.msg == nil {
					continue
				}
				nested = true
				b = append(b, "\n      <"...)
				b = append(b, m.tag...)
				b = appendAttr(b, "message", m.msg.Message)
				if m.msg.Type != "" {
					b = appendAttr(b, "type", m.msg.Type)
				}
				b = append(b, '>')
				b = appendEscaped(b, m.msg.Text)
				b = append(b, "</"...)
				b = append(b, m.tag...)
				b = append(b, '>')
			}
			if c.SystemOut != "" {
				nested = true
				b = append(b, "\n      <system-out>"...)
				b = appendEscaped(b, c.SystemOut)
				b = append(b, "</system-out>"...)
			}
			if nested {
				b = append(b, "\n    "...)
			}
			b = append(b, "</testcase>"...)
		}
		if len(s.Cases) > 0 {
			b = append(b, "\n  "...)
		}
		b = append(b, "</testsuite>"...)
	}
	if len(d.Suites) > 0 {
		b = append(b, '\n')
	}
	return append(b, "</testsuites>"...)
}

// appendAttr appends ` name="value"`.
func appendAttr(b []byte, name, value string) []byte {
	b = append(b, ' ')
	b = append(b, name...)
	b = append(b, `="`...)
	b = appendEscaped(b, value)
	return append(b, '"')
}

// appendEscaped appends s escaped as encoding/xml escapes attribute
// values and character data (its EscapeString): the five markup
// characters and tab, newline and carriage return as character
// references, and a character XML cannot hold, or a byte that is not
// UTF-8, as U+FFFD.
func appendEscaped(b []byte, s string) []byte {
	last := 0
	for i := 0; i < len(s); {
		r, width := utf8.DecodeRuneInString(s[i:])
		i += width
		var esc string
		switch r {
		case '"':
			esc = "&#34;"
		case '\'':
			esc = "&#39;"
		case '&':
			esc = "&amp;"
		case '<':
			esc = "&lt;"
		case '>':
			esc = "&gt;"
		case '\t':
			esc = "&#x9;"
		case '\n':
			esc = "&#xA;"
		case '\r':
			esc = "&#xD;"
		default:
			if !xmlChar(r) || (r == utf8.RuneError && width == 1) {
				esc = "\uFFFD"
				break
			}
			continue
		}
		b = append(b, s[last:i-width]...)
		b = append(b, esc...)
		last = i
	}
	return append(b, s[last:]...)
}

// xmlChar reports whether r is in XML's Char production.
func xmlChar(r rune) bool {
	return r == 0x09 ||
		r == 0x0A ||
		r == 0x0D ||
		r >= 0x20 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD ||
		r >= 0x10000 && r <= 0x10FFFF
}
