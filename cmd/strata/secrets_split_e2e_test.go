package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/e2e/strataproc"
)

// splitSecret is printed in two writes, cut inside its password.
const splitSecret = "postgres://app:Sp-4e1b7a90-pw@127.0.0.1:1/app"

// A Go block that prints a secret in two writes, each holding part of it
// (fmt.Print(v[:20]); fmt.Print(v[20:])): each write alone holds no whole
// value, so masking them one by one let the value through to the run's
// log. Through the binary, compiled (strata run) and interpreted (the
// server's API): the output reads *** and no output, response or file
// holds the value or the fragment on either side of the cut.
func TestSecretPrintedInPiecesIsMasked(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	t.Setenv("STRATA_TEST_SPLIT_PG", splitSecret)
	bin := strataproc.Binary(t)
	dir := filepath.Join(t.TempDir(), "proj")
	writeExtProject(t, dir, map[string]string{
		"strata.yaml":          "name: split\nsecrets:\n  pg: {env: STRATA_TEST_SPLIT_PG}\n",
		"pipelines/split.yaml": "partitions: {interval: day, timezone: UTC, start: \"2024-01-01\"}\nblocks:\n  - id: leak\n    product: split_leak\n",
		"blocks/leak/leak.go": `package leak

import (
	"fmt"
	"os"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
)

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	v, err := ctx.Secret("pg")
	if err != nil {
		return nil, err
	}
	fmt.Print("pg is ")
	fmt.Print(v[:20])
	// Without a pause the kernel's pipe reader may take both writes in one
	// read; with it they reach the handler as two pieces (the fix does not
	// depend on this: one piece or two, the value is masked).
	time.Sleep(300 * time.Millisecond)
	fmt.Print(v[20:])
	fmt.Println(" (stdout)")
	fmt.Fprint(os.Stderr, v[:3])
	time.Sleep(300 * time.Millisecond)
	fmt.Fprintln(os.Stderr, v[3:])
	fmt.Print("ends with ", v[:5]) // the run's last write: held, then shown
	t := sdk.NewTable(sdk.Int64("n"))
	t.Append(int64(len(v)))
	return t, nil
}
`,
	})
	// The value, and the fragments on either side of each cut.
	leaks := []string{splitSecret, "Sp-4e1b7a90-pw", splitSecret[:20], splitSecret[20:]}

	var texts []string
	out, code := strataproc.Run(t, bin, "run", dir, "split", "--partition", "2024-01-02")
	texts = append(texts, out)
	if code != 0 || !strings.Contains(out, "pg is *** (stdout)") {
		t.Fatalf("strata run split: exit %d, want the value masked whole:\n%s", code, out)
	}

	srv := strataproc.Start(t, bin, dir, "split-e2e-token-0123456789")
	call := func(method, path, body string) string {
		t.Helper()
		_, data, err := srv.Request(method, path, body)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, string(data))
		return string(data)
	}
	run := call("POST", "/pipelines/split/runs?wait=true", `{"partition": "2024-01-01", "engine": "interp"}`)
	if !strings.Contains(run, `"state":"succeeded"`) {
		t.Fatalf("API run: %s", run)
	}
	runs := call("GET", "/runs?limit=100", "")
	ids := runIDs(runs)
	if len(ids) != 2 {
		t.Fatalf("GET /runs lists %v, want the two runs", ids)
	}
	for _, id := range ids {
		body := call("GET", "/runs/"+id, "")
		// stderr comes on its own pipe: its line may land anywhere.
		if !strings.Contains(body, `pg is *** (stdout)`) || strings.Count(body, "***") != 2 || !strings.Contains(body, `postg`) {
			t.Errorf("run %s: the log does not show both printed values masked, and the run's last write (the start of the value, held then shown):\n%s", id, body)
		}
	}
	srv.Stop(t)
	texts = append(texts, srv.Stderr.String(), strings.Join(srv.Printed, "\n"))

	for _, v := range leaks {
		for _, s := range texts {
			if strings.Contains(s, v) {
				t.Errorf("output holds %q:\n%s", v, s)
			}
		}
	}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, v := range leaks {
			if bytes.Contains(data, []byte(v)) {
				t.Errorf("%s holds %q", p, v)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
