package replay

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"

	"github.com/stratahq/strata/projects/engine"
)

// JUnit XML, the format CI systems read test results in: one test suite
// for the replay, one test case per block and partition. A failed replay
// is an error; a change is a failure only for a product the replay
// expects unchanged (otherwise the case passes, and says what changed in
// its system-out).

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name      string      `xml:"name,attr"`
	Tests     int         `xml:"tests,attr"`
	Failures  int         `xml:"failures,attr"`
	Errors    int         `xml:"errors,attr"`
	Skipped   int         `xml:"skipped,attr"`
	Time      string      `xml:"time,attr"`
	Timestamp string      `xml:"timestamp,attr"`
	Cases     []junitCase `xml:"testcase"`
}

type junitCase struct {
	Classname string        `xml:"classname,attr"`
	Name      string        `xml:"name,attr"`
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

// WriteJUnit writes the report as JUnit XML.
func (r *Report) WriteJUnit(w io.Writer) error {
	gated := map[string]bool{}
	for _, g := range r.Gates {
		gated[g.Product] = true
	}
	suite := junitSuite{Name: "replay " + r.Pipeline, Time: seconds(r.DurationMS), Timestamp: r.Started.Format("2006-01-02T15:04:05")}
	for _, p := range r.Partitions {
		for _, b := range p.Blocks {
			c := junitCase{Classname: "replay." + r.Pipeline + "." + b.Product, Name: p.Partition, Time: seconds(b.DurationMS)}
			if b.Product == "" {
				c.Classname = "replay." + r.Pipeline
			}
			switch b.Status {
			case engine.ReplayFailed:
				c.Error = &junitMessage{Message: firstLine(b.Error), Type: "replay failed", Text: b.Error}
				suite.Errors++
			case engine.ReplaySkipped:
				c.Skipped = &junitMessage{Message: b.Error}
				suite.Skipped++
			case engine.ReplayChanged:
				var buf bytes.Buffer
				fmt.Fprintln(&buf, diffLine(b.Diff))
				writeRows(&buf, b.Diff)
				if gated[b.Product] {
					c.Failure = &junitMessage{Message: b.Product + " changed: " + diffLine(b.Diff), Type: "expect unchanged", Text: buf.String()}
					suite.Failures++
				} else {
					c.SystemOut = buf.String()
				}
			}
			suite.Cases = append(suite.Cases, c)
			suite.Tests++
		}
	}
	out := junitSuites{Name: "strata test --replay " + r.Pipeline, Tests: suite.Tests, Failures: suite.Failures, Errors: suite.Errors,
		Time: suite.Time, Suites: []junitSuite{suite}}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

func seconds(ms float64) string { return fmt.Sprintf("%.3f", ms/1000) }
