package supervisor

import (
	"encoding/binary"
	"encoding/json"
	"io"
	"os"
	"strconv"
	"testing"

	"github.com/stratahq/strata/kernel/child"
	"github.com/stratahq/strata/kernel/interp"
	"github.com/stratahq/strata/kernel/protocol"
)

// The test binary doubles as the kernel: started with STRATA_KERNEL_CHILD=1
// it runs exactly what `strata kernel` runs, so every test drives a real
// child process over the real protocol.
func TestMain(m *testing.M) {
	if os.Getenv("STRATA_KERNEL_CHILD") == "garbled" {
		garbledKernel()
	}
	if os.Getenv("STRATA_KERNEL_CHILD") == "1" {
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
	os.Exit(m.Run())
}

// garbledKernel greets, then answers an exec with a result whose table is
// cut short, and stays up.
func garbledKernel() {
	w, r := protocol.NewWriter(os.Stdout), protocol.NewReader(os.Stdin)
	_ = w.Write(&protocol.Message{Type: protocol.TypeReady, Ready: &protocol.Ready{PID: os.Getpid()}})
	m, _, err := r.Read()
	if err != nil {
		os.Exit(1)
	}
	header, _ := json.Marshal(&protocol.Message{Type: protocol.TypeResult, ID: m.ID, Tables: 1, Result: &protocol.Result{}})
	body := binary.LittleEndian.AppendUint32(nil, uint32(len(header)))
	body = append(body, header...)
	body = append(body, 1, 0, 0, 0, 10, 0, 0, 0) // one column, ten rows, then nothing
	_, _ = os.Stdout.Write(append(binary.LittleEndian.AppendUint32(nil, uint32(len(body))), body...))
	_, _ = io.Copy(io.Discard, os.Stdin)
	os.Exit(0)
}

func testConfig() Config {
	return Config{Command: []string{os.Args[0]}, Env: []string{"STRATA_KERNEL_CHILD=1"}}
}
