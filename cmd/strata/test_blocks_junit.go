package main

import (
	"bufio"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"sort"
	"strings"
)

// Block tests as JUnit XML for CI: `go test -json` (test2json events) read
// into one test suite per block package, one test case per test. A failed
// test is a <failure> with its output; a package that failed without a
// failing test (it did not build, or a TestMain exited) gets one <error>
// case with the package's output, so CI never reads it as a pass.

// testEvent is one test2json event.
type testEvent struct {
	Action      string
	Package     string
	ImportPath  string // build-output events
	FailedBuild string // a package's fail: the build that failed
	Test        string
	Elapsed     float64
	Output      string
}

type blockSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Suites   []blockSuite `xml:"testsuite"`
}

type blockSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []blockCase `xml:"testcase"`
}

type blockCase struct {
	Classname string        `xml:"classname,attr"`
	Name      string        `xml:"name,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *blockMessage `xml:"failure,omitempty"`
	Error     *blockMessage `xml:"error,omitempty"`
	Skipped   *blockMessage `xml:"skipped,omitempty"`
}

type blockMessage struct {
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

// blockJUnit reads test2json events from r and writes JUnit XML to w;
// stderr is go test's own (build errors), added to a failed package.
func blockJUnit(r io.Reader, stderr string, w io.Writer) error {
	type pkg struct {
		suite  blockSuite
		byTest map[string]int    // test -> index in suite.Cases
		out    map[string]string // test ("" for the package) -> output
		failed bool
		time   float64
	}
	pkgs := map[string]*pkg{}
	builds := map[string]string{}
	get := func(name string) *pkg {
		p := pkgs[name]
		if p == nil {
			p = &pkg{suite: blockSuite{Name: name}, byTest: map[string]int{}, out: map[string]string{}}
			pkgs[name] = p
		}
		return p
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var ev testEvent
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			return fmt.Errorf("go test -json: %q: %w", sc.Text(), err)
		}
		if ev.Action == "build-output" {
			// A build's output, by build ("demo/blocks/clv.test"); the
			// package's fail event names its build in FailedBuild.
			builds[ev.ImportPath] += ev.Output
			continue
		}
		if ev.Package == "" {
			continue
		}
		p := get(ev.Package)
		switch ev.Action {
		case "output":
			p.out[ev.Test] += ev.Output
		case "pass", "fail", "skip":
			if ev.Test == "" {
				p.failed, p.time = ev.Action == "fail", ev.Elapsed
				if ev.FailedBuild != "" {
					p.out[""] = builds[ev.FailedBuild] + p.out[""]
				}
				continue
			}
			c := blockCase{Classname: ev.Package, Name: ev.Test, Time: fmt.Sprintf("%.3f", ev.Elapsed)}
			switch ev.Action {
			case "fail":
				c.Failure = &blockMessage{Message: ev.Test + " failed", Text: p.out[ev.Test]}
				p.suite.Failures++
			case "skip":
				c.Skipped = &blockMessage{Message: strings.TrimSpace(lastLine(p.out[ev.Test]))}
				p.suite.Skipped++
			}
			p.byTest[ev.Test] = len(p.suite.Cases)
			p.suite.Cases = append(p.suite.Cases, c)
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	names := make([]string, 0, len(pkgs))
	for n := range pkgs {
		names = append(names, n)
	}
	sort.Strings(names)
	all := blockSuites{Name: "strata block tests"}
	for _, n := range names {
		p := pkgs[n]
		if p.failed && p.suite.Failures == 0 {
			text := p.out[""]
			if strings.TrimSpace(text) == "" {
				text = stderr
			}
			p.suite.Cases = append(p.suite.Cases, blockCase{Classname: n, Name: "(package)", Time: "0.000",
				Error: &blockMessage{Message: n + " failed without a failing test (it did not build, or exited)", Text: text}})
			p.suite.Errors++
		}
		if len(p.suite.Cases) == 0 {
			continue // a package with no test files
		}
		p.suite.Tests = len(p.suite.Cases)
		p.suite.Time = fmt.Sprintf("%.3f", p.time)
		all.Tests += p.suite.Tests
		all.Failures += p.suite.Failures
		all.Errors += p.suite.Errors
		all.Suites = append(all.Suites, p.suite)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(all); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// lastLine is the last non-empty line of s (a skip's reason).
func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if t := strings.TrimSpace(lines[i]); t != "" && !strings.HasPrefix(t, "--- SKIP") {
			return t
		}
	}
	return ""
}
