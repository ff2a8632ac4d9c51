package builder

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"
)

// Event is one step of a build or test run, as reported to a Progress.
// Events arrive from several goroutines; a Progress serializes them.
type Event struct {
	// Event is "start", "done", "fail", "skip" (build steps), "test"
	// (a finished test), "note" or "summary".
	Event    string   `json:"event"`
	Platform Platform `json:"platform,omitempty"`
	Target   string   `json:"target,omitempty"`
	// Step is CC (compile), AR (archive), LD (link) or TR (translate).
	Step   string `json:"step,omitempty"`
	File   string `json:"file,omitempty"`
	Cached bool   `json:"cached,omitempty"`
	// Status is a test's outcome: pass, fail, skip, timeout, crash.
	Status  string  `json:"status,omitempty"`
	Seconds float64 `json:"seconds,omitempty"`
	Done    int     `json:"done,omitempty"`
	Total   int     `json:"total,omitempty"`
	Elapsed float64 `json:"elapsed,omitempty"`
	// Message carries compiler output, a note or a test's reason.
	Message string `json:"message,omitempty"`
}

// Progress receives events. Implementations must be safe for concurrent use.
type Progress interface {
	Event(Event)
	// Close finishes the output (clears a live line).
	Close()
}

// NewProgress picks the reporter: a JSON event stream on w, a live status
// line when w is a terminal, or plain lines. Compiler messages go to msgs
// (standard error) in the text modes and inside events in JSON.
func NewProgress(w, msgs io.Writer, jsonStream bool) Progress {
	if jsonStream {
		return &jsonProgress{enc: json.NewEncoder(w)}
	}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 && os.Getenv("TERM") != "dumb" {
			return newLiveProgress(w, msgs)
		}
	}
	return &plainProgress{w: w, msgs: msgs}
}

type jsonProgress struct {
	mu  sync.Mutex
	enc *json.Encoder
}

func (p *jsonProgress) Event(e Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	_ = p.enc.Encode(e)
}

func (p *jsonProgress) Close() {}

// plainProgress prints one line per finished step, for logs and CI.
type plainProgress struct {
	mu   sync.Mutex
	w    io.Writer
	msgs io.Writer
}

func (p *plainProgress) Event(e Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch e.Event {
	case "done", "fail":
		line := fmt.Sprintf("[%d/%d] %s %-7s %s", e.Done, e.Total, e.Step, e.Platform, e.File)
		if e.Cached {
			line += " (cached)"
		}
		if e.Event == "fail" {
			line += " FAILED"
		}
		fmt.Fprintln(p.w, line)
		if e.Message != "" {
			fmt.Fprintln(p.msgs, strings.TrimRight(e.Message, "\n"))
		}
	case "note":
		fmt.Fprintln(p.w, e.Message)
	case "test":
		fmt.Fprintln(p.w, testLine(e))
	}
}

func testLine(e Event) string {
	line := fmt.Sprintf("%-8s %-7s %s (%.2fs)", strings.ToUpper(e.Status), e.Platform, e.Target, e.Seconds)
	if e.Message != "" && e.Status != TestPass {
		line += ": " + e.Message
	}
	return line
}

func (p *plainProgress) Close() {}

// liveProgress keeps one status line at the bottom of a terminal, redrawn
// on each event and every 200ms so the elapsed time moves.
type liveProgress struct {
	mu      sync.Mutex
	w       io.Writer
	msgs    io.Writer
	start   time.Time
	done    int
	total   int
	running map[string]bool // steps in flight, shown on the line
	stop    chan struct{}
	stopped sync.Once
}

func newLiveProgress(w, msgs io.Writer) *liveProgress {
	p := &liveProgress{w: w, msgs: msgs, start: time.Now(), running: map[string]bool{}, stop: make(chan struct{})}
	go func() {
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-t.C:
				p.mu.Lock()
				p.draw()
				p.mu.Unlock()
			}
		}
	}()
	return p
}

func (p *liveProgress) draw() {
	if p.total == 0 {
		return
	}
	var names []string
	for n := range p.running {
		names = append(names, n)
	}
	slices.Sort(names)
	line := strings.Join(names, ", ")
	if len(line) > 100 {
		line = line[:97] + "..."
	}
	fmt.Fprintf(p.w, "\r\x1b[K[%d/%d %.1fs] %s", p.done, p.total, time.Since(p.start).Seconds(), line)
}

func (p *liveProgress) Event(e Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if e.Total > 0 {
		p.total = e.Total
	}
	switch e.Event {
	case "start":
		p.running[fmt.Sprintf("%s %s %s", e.Step, e.Platform, e.File)] = true
	case "done", "fail", "skip":
		delete(p.running, fmt.Sprintf("%s %s %s", e.Step, e.Platform, e.File))
		p.done = e.Done
		if e.Message != "" || e.Event == "fail" {
			// Messages scroll above the status line.
			fmt.Fprintf(p.w, "\r\x1b[K%s %s %s%s\n", e.Step, e.Platform, e.File, map[bool]string{true: " FAILED"}[e.Event == "fail"])
			if e.Message != "" {
				fmt.Fprintln(p.msgs, strings.TrimRight(e.Message, "\n"))
			}
		}
	case "note":
		fmt.Fprintf(p.w, "\r\x1b[K%s\n", e.Message)
	case "test":
		fmt.Fprintf(p.w, "\r\x1b[K%s\n", testLine(e))
	}
	p.draw()
}

func (p *liveProgress) Close() {
	p.stopped.Do(func() {
		close(p.stop)
		p.mu.Lock()
		if p.total > 0 {
			fmt.Fprint(p.w, "\r\x1b[K")
		}
		p.mu.Unlock()
	})
}
