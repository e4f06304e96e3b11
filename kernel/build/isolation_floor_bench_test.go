package build

import (
	"os"
	"os/exec"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// The isolation floor: the least a Transform costs when it runs in another
// process, measured rather than argued. Two processes share one mapping;
// the coordinator copies the input into it once, the worker computes
// straight on it (no decode, no frame, no JSON), copies its result into it
// once, and the coordinator copies the result out once into memory it owns
// (a caller keeps its output). Both sides busy-wait on a sequence word, so
// no wake-up is paid either. Every design that passes tables through
// shared memory does at least this. (One that copies straight between the
// two processes' heaps, with process_vm_readv and ptrace rights over the
// worker, saves the worker's copy of its result; copy-once-floor bounds
// that one: the input and output copied once each, nothing else.)
// BenchmarkTransform100kCompiled reports the protocol against both and
// against the function in-process.

// floorWorkerEnv names the shared file when the test binary is the floor's
// worker (TestMain).
const floorWorkerEnv = "STRATA_BENCH_FLOOR_WORKER"

const (
	floorHeader = 128                         // the request word at 0, the answer word at 64
	floorStop   = ^uint64(0)                  // the request that ends the worker
	floorRows   = 100_000                     // rows of the benchmark's table
	floorSize   = floorHeader + 3*8*floorRows // ids, amounts, scores
)

// scoreRows is scoreSrc's loop over plain slices.
func scoreRows(ids []int64, amounts []float64) []float64 {
	scores := make([]float64, len(ids))
	for i := 0; i < len(ids); i++ {
		s := amounts[i] * 1.1
		if ids[i]%3 == 0 {
			s = s + 5
		}
		scores[i] = s
	}
	return scores
}

type floorMem []byte

func mapFloor(path string, create bool) (floorMem, error) {
	flag := os.O_RDWR
	if create {
		flag |= os.O_CREATE | os.O_TRUNC
	}
	f, err := os.OpenFile(path, flag, 0o600)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if create {
		if err := syscall.Fallocate(int(f.Fd()), 0, 0, floorSize); err != nil {
			return nil, err
		}
	}
	return syscall.Mmap(int(f.Fd()), 0, floorSize, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
}

func (m floorMem) request() *uint64 { return (*uint64)(unsafe.Pointer(&m[0])) }
func (m floorMem) answer() *uint64  { return (*uint64)(unsafe.Pointer(&m[64])) }
func (m floorMem) ids() []int64 {
	return unsafe.Slice((*int64)(unsafe.Pointer(&m[floorHeader])), floorRows)
}
func (m floorMem) amounts() []float64 {
	return unsafe.Slice((*float64)(unsafe.Pointer(&m[floorHeader+8*floorRows])), floorRows)
}
func (m floorMem) scores() []float64 {
	return unsafe.Slice((*float64)(unsafe.Pointer(&m[floorHeader+16*floorRows])), floorRows)
}

// serveFloorIfChild is the floor's worker, when the environment says so.
func serveFloorIfChild() {
	path := os.Getenv(floorWorkerEnv)
	if path == "" {
		return
	}
	m, err := mapFloor(path, false)
	if err != nil {
		os.Exit(2)
	}
	var seen uint64
	for {
		for atomic.LoadUint64(m.request()) == seen {
			yield()
		}
		seen = atomic.LoadUint64(m.request())
		if seen == floorStop {
			os.Exit(0)
		}
		copy(m.scores(), scoreRows(m.ids(), m.amounts()))
		atomic.StoreUint64(m.answer(), seen)
	}
}

// yield gives the core to another process that wants it: on an idle
// machine it returns at once (no wake-up is paid), on a busy one a spinning
// side would otherwise take the core the other side needs.
func yield() { syscall.Syscall(syscall.SYS_SCHED_YIELD, 0, 0, 0) }

// floorSink keeps the in-process results alive, as a caller would.
var floorSink []float64

// isolationFloor runs n Transforms through the floor and, interleaved, in
// process; it returns both totals.
func isolationFloor(b *testing.B, ids []int64, amounts []float64, n int) (floor, native time.Duration) {
	b.Helper()
	if len(ids) != floorRows {
		b.Fatalf("the floor is sized for %d rows", floorRows)
	}
	dir := b.TempDir()
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
		dir = "/dev/shm"
	}
	path := dir + "/strata-bench-floor-" + time.Now().Format("150405.000000000")
	m, err := mapFloor(path, true)
	if err != nil {
		b.Skip("no shared mapping here:", err)
	}
	defer os.Remove(path)
	defer syscall.Munmap(m)
	cmd := exec.Command(os.Args[0], "-test.run", "^$")
	cmd.Env = append(os.Environ(), floorWorkerEnv+"="+path)
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() {
		atomic.StoreUint64(m.request(), floorStop)
		_ = cmd.Wait()
	}()
	var out []float64
	for i := 1; i <= n; i++ {
		start := time.Now()
		floorSink = scoreRows(ids, amounts)
		native += time.Since(start)
		start = time.Now()
		copy(m.ids(), ids)
		copy(m.amounts(), amounts)
		atomic.StoreUint64(m.request(), uint64(i))
		for atomic.LoadUint64(m.answer()) != uint64(i) {
			yield()
		}
		out = append([]float64(nil), m.scores()...)
		floor += time.Since(start)
	}
	if out[3] != amounts[3]*1.1+5 {
		b.Fatalf("the floor's worker computed %v", out[3])
	}
	return floor, native
}
