package main

import (
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/e2e/strataproc"
)

// clvTest is a block test of the demo's clv: one table from CSV, and one
// day as it is stored (its input and its output, read with FromVersion).
const clvTest = `package clv

import (
	"testing"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/blocks/sdk/sdktest"
)

func TestTransformFromCSV(t *testing.T) {
	ctx := sdktest.NewContext(t, "2024-03-10", sdktest.Vars(map[string]string{"margin": "0.5"}))
	metrics := sdktest.CSV(t, "customer_id,orders,avg_order_value,subscriber\n1,1,10,false\n2,3,100,true",
		sdk.Float64("avg_order_value"))
	got, err := Transform(ctx, metrics)
	if err != nil {
		t.Fatal(err)
	}
	sdktest.Equal(t, got, sdktest.CSV(t, "customer_id,clv,segment\n1,60,occasional\n2,2250,vip", sdk.Float64("clv")), "customer_id")
}

func TestTransformOnAStoredDay(t *testing.T) {
	ctx := sdktest.NewContext(t, "2024-03-10", sdktest.Vars(map[string]string{"margin": "0.32"}))
	metrics, err := sdktest.FromVersion(ctx, "daily_customer_metrics", "2024-03-10", 1)
	if err != nil {
		t.Fatal(err)
	}
	want, err := sdktest.FromVersion(ctx, "clv__clv", "2024-03-10", 0)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Transform(ctx, metrics)
	if err != nil {
		t.Fatal(err)
	}
	sdktest.Equal(t, got, want, "customer_id")
}
`

// TestBlockTestsCommand: _test.go files in a block folder run with
// ` + "`strata test`" + ` and with plain go test in the project, with inputs from CSV
// and from stored versions; a change that breaks one fails with a
// readable diff and exit 1.
func TestBlockTestsCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no Go toolchain")
	}
	bin := strataproc.Binary(t)
	demo := filepath.Join(t.TempDir(), "demo")
	run := func(want int, args ...string) string {
		t.Helper()
		return runWant(t, bin, want, args...)
	}
	run(0, "init", demo, "--demo")
	if out := run(0, "test", demo); !strings.Contains(out, "no block tests in ") {
		t.Fatalf("no tests yet:\n%s", out)
	}
	run(0, "backfill", demo, "clv", "--from", "2024-03-09", "--to", "2024-03-10")
	if err := os.WriteFile(filepath.Join(demo, "blocks", "clv", "clv_test.go"), []byte(clvTest), 0o644); err != nil {
		t.Fatal(err)
	}
	out := run(0, "test", demo, "-v")
	for _, want := range []string{"--- PASS: TestTransformFromCSV", "--- PASS: TestTransformOnAStoredDay", "ok  \tdemo/blocks/clv"} {
		if !strings.Contains(out, want) {
			t.Fatalf("strata test lacks %q:\n%s", want, out)
		}
	}
	// A block test file is not part of the block: a run still works.
	run(0, "run", demo, "clv", "--partition", "2024-03-08")

	// Plain go test in the project: blocks are packages.
	goTest := exec.Command("go", "test", "-count=1", "./blocks/clv/")
	goTest.Dir = demo
	goTest.Env = append(os.Environ(), "STRATA_BIN="+bin, "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	if b, err := goTest.CombinedOutput(); err != nil {
		t.Fatalf("go test in the project: %v\n%s", err, b)
	}

	clv := filepath.Join(demo, "blocks", "clv", "clv.go")
	src, err := os.ReadFile(clv)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(clv, []byte(strings.Replace(string(src), "lifetime = 4.5", "lifetime = 5", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	out = run(1, "test", demo, "--run", "TestTransformOnAStoredDay")
	for _, want := range []string{"--- FAIL: TestTransformOnAStoredDay", "tables differ (-want +got):", "changed, 0 missing, 0 unexpected", "~ customer_id=", ": clv: "} {
		if !strings.Contains(out, want) {
			t.Fatalf("failing strata test lacks %q:\n%s", want, out)
		}
	}

	// The same as JUnit XML for CI: a failing test is a <failure> with its
	// diff (the changed clv fails both tests; --run picks one); a package
	// that does not build is an <error>, never a pass.
	parse := func(x string) blockSuites {
		t.Helper()
		var s blockSuites
		if err := xml.Unmarshal([]byte(x), &s); err != nil {
			t.Fatalf("junit does not parse: %v\n%s", err, x)
		}
		return s
	}
	js := parse(run(1, "test", demo, "--format", "junit", "--run", "TestTransformOnAStoredDay"))
	if js.Tests != 1 || js.Failures != 1 || js.Errors != 0 || len(js.Suites) != 1 || js.Suites[0].Name != "demo/blocks/clv" {
		t.Fatalf("junit: %+v", js)
	}
	for _, c := range js.Suites[0].Cases {
		if c.Name != "TestTransformOnAStoredDay" || c.Failure == nil || !strings.Contains(c.Failure.Text, "tables differ (-want +got):") {
			t.Fatalf("junit case %+v", c)
		}
	}
	broken := filepath.Join(demo, "blocks", "clv", "broken_test.go")
	if err := os.WriteFile(broken, []byte("package clv\n\nfunc broken( {\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	js = parse(run(1, "test", demo, "--format", "junit"))
	if js.Errors != 1 || js.Suites[0].Cases[0].Name != "(package)" || !strings.Contains(js.Suites[0].Cases[0].Error.Text, "broken_test.go") {
		t.Fatalf("junit of a package that does not build: %+v", js)
	}
	if err := os.Remove(broken); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(clv, src, 0o644); err != nil {
		t.Fatal(err)
	}
	js = parse(run(0, "test", demo, "--format", "junit"))
	if js.Tests != 2 || js.Failures != 0 || js.Errors != 0 {
		t.Fatalf("junit of passing tests: %+v", js)
	}

	// Bad input.
	if out := run(1, "test", demo, "--read", "daily_customer_metrics"); !strings.Contains(out, "--read daily_customer_metrics needs --partition KEY") {
		t.Fatal(out)
	}
	if out := run(1, "test", demo, "--read", "daily_customer_metrics", "--partition", "2024-03-10", "--version", "9"); !strings.Contains(out, "no version 9") {
		t.Fatal(out)
	}
}
