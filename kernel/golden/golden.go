// Package golden reads the example blocks of kernel/testdata/golden, which
// the kernel's tests run in every mode (interpreted, compiled). It needs
// nothing but the protocol, so the supervisor's own tests can use it too
// (kerneltest cannot: it imports the supervisor).
package golden

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/blocks/tableio"
	"github.com/stratahq/strata/kernel/protocol"
)

// Request turns an example block of kernel/testdata/golden into the
// request that runs it. The block's first line says how:
//
//	// run: partition=2024-03-10 tz=America/New_York input=orders:orders.csv timeout=1s memory_mb=256 allow=os/exec
//
// memMB is the memory limit the example wants for a kernel of its own (0: any).
func Request(file string) (req *protocol.ExecRequest, inputs []*sdk.Table, memMB int, err error) {
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
