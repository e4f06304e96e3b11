// Package kerneltest lets a test binary double as a kernel process, so the
// tests of any package drive real kernels over the real protocol without
// building bin/strata first:
//
//	func TestMain(m *testing.M) {
//		kerneltest.ServeIfChild()
//		os.Exit(m.Run())
//	}
//
// and supervisor.NewPool(kerneltest.Config(), n) starts kernels that run
// exactly what `strata kernel` runs.
package kerneltest

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/blocks/tableio"
	"github.com/stratahq/strata/kernel/protocol"

	"github.com/stratahq/strata/kernel/child"
	"github.com/stratahq/strata/kernel/interp"
	"github.com/stratahq/strata/kernel/supervisor"
)

const childEnv = "STRATA_KERNEL_CHILD"

// ServeIfChild serves the kernel protocol and exits when this process was
// started by Config; otherwise it returns at once.
func ServeIfChild() {
	if os.Getenv(childEnv) != "1" {
		return
	}
	var limit int64
	for i, a := range os.Args {
		if a == "--memory-limit" && i+1 < len(os.Args) {
			limit, _ = strconv.ParseInt(os.Args[i+1], 10, 64)
		}
	}
	if err := child.Main(interp.NewExecutor(), child.Options{MemoryLimit: limit}); err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		os.Exit(1)
	}
	os.Exit(0)
}

// Config starts kernels from the running test binary.
func Config() supervisor.Config {
	return supervisor.Config{Command: []string{os.Args[0]}, Env: []string{childEnv + "=1"}}
}

// GoldenRequest turns an example block of kernel/testdata/golden into the
// request that runs it. The block's first line says how:
//
//	// run: partition=2024-03-10 tz=America/New_York input=orders:orders.csv timeout=1s memory_mb=256 allow=os/exec
//
// memMB is the memory limit the example wants for a kernel of its own (0: any).
func GoldenRequest(file string) (req *protocol.ExecRequest, inputs []*sdk.Table, memMB int, err error) {
	src, err := os.ReadFile(file)
	if err != nil {
		return nil, nil, 0, err
	}
	first, _, _ := strings.Cut(string(src), "\n")
	opts := map[string][]string{}
	if spec, ok := strings.CutPrefix(first, "// run:"); ok {
		for _, f := range strings.Fields(spec) {
			k, v, _ := strings.Cut(f, "=")
			opts[k] = append(opts[k], v)
		}
	}
	get := func(k, def string) string {
		if v := opts[k]; len(v) > 0 {
			return v[0]
		}
		return def
	}
	loc, err := time.LoadLocation(get("tz", "UTC"))
	if err != nil {
		return nil, nil, 0, err
	}
	day, err := time.ParseInLocation("2006-01-02", get("partition", "2024-03-10"), loc)
	if err != nil {
		return nil, nil, 0, err
	}
	timeout, _ := time.ParseDuration(get("timeout", "5s"))
	req = &protocol.ExecRequest{
		Filename:  filepath.Base(file),
		Source:    string(src),
		Partition: protocol.PartitionWire{Key: day.Format("2006-01-02"), Start: day, End: day.AddDate(0, 0, 1), Interval: "day", Zone: loc.String()},
		Timeout:   timeout,
		Allow:     opts["allow"],
		Vars:      map[string]string{"currency": "EUR"},
	}
	for _, in := range opts["input"] {
		name, csvFile, _ := strings.Cut(in, ":")
		f, err := os.Open(filepath.Join(filepath.Dir(file), csvFile))
		if err != nil {
			return nil, nil, 0, err
		}
		tbl, err := tableio.ReadCSV(f)
		f.Close()
		if err != nil {
			return nil, nil, 0, err
		}
		req.Inputs = append(req.Inputs, name)
		inputs = append(inputs, tbl)
	}
	memMB, _ = strconv.Atoi(get("memory_mb", "0"))
	return req, inputs, memMB, nil
}
