package builder

import (
	"encoding/xml"
	"math/rand/v2"
	"strings"
	"testing"
)

// xmlJUnit is what WriteJUnit wrote with encoding/xml before appendXML.
func xmlJUnit(t *testing.T, doc junitSuites) string {
	t.Helper()
	ref := struct {
		XMLName xml.Name     `xml:"testsuites"`
		Suites  []junitSuite `xml:"testsuite"`
	}{Suites: doc.Suites}
	data, err := xml.MarshalIndent(ref, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return xml.Header + string(data)
}

// TestJUnitXML checks that appendXML writes the bytes encoding/xml writes,
// for documents of every shape and strings of every kind of character.
func TestJUnitXML(t *testing.T) {
	pieces := []string{
		"", "a", "hip-cpu", "fx/rocm", " ", "\"", "'", "&", "<", ">", "\t", "\n", "\r", "\r\n",
		"\x00", "\x01", "\x1f", "\x7f", "\x80", "\xff", "\xc3", "\xc3\xa9", "\uFFFD", "\uFFFE", "\uFFFF",
		"\ud7ff", "\ue000", "\U00010000", "\U0010FFFF", "\xed\xa0\x80", "]]>", "<![CDATA[", "&amp;",
		"==== 1 failed ====\nat x.cu:3\n", "0.000", "12.345", "日本",
	}
	rnd := rand.New(rand.NewPCG(1, 2))
	str := func() string {
		if rnd.IntN(4) == 0 { // any bytes at all
			b := make([]byte, rnd.IntN(8))
			for i := range b {
				b[i] = byte(rnd.IntN(256))
			}
			return string(b)
		}
		var b strings.Builder
		for range rnd.IntN(5) {
			b.WriteString(pieces[rnd.IntN(len(pieces))])
		}
		return b.String()
	}
	msg := func() *junitMessage {
		if rnd.IntN(2) == 0 {
			return nil
		}
		return &junitMessage{Message: str(), Type: str(), Text: str()}
	}
	check := func(doc junitSuites) {
		t.Helper()
		got := string(doc.appendXML([]byte(xmlHeader)))
		if want := xmlJUnit(t, doc); got != want {
			t.Fatalf("appendXML wrote\n%q\nencoding/xml writes\n%q", got, want)
		}
	}
	check(junitSuites{})
	check(junitSuites{Suites: []junitSuite{{}}})
	check(junitSuites{Suites: []junitSuite{{Cases: []junitCase{{}}}}})
	for range 5000 {
		var doc junitSuites
		for range rnd.IntN(4) {
			s := junitSuite{Name: str(), Tests: rnd.IntN(20) - 2, Failures: rnd.IntN(3), Errors: rnd.IntN(3), Skipped: rnd.IntN(3), Time: str()}
			for range rnd.IntN(4) {
				s.Cases = append(s.Cases, junitCase{Name: str(), Classname: str(), Time: str(), Failure: msg(), Error: msg(), Skipped: msg(), SystemOut: str()})
			}
			doc.Suites = append(doc.Suites, s)
		}
		check(doc)
	}
}
