package remote

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/protocol"
)

// names are the streams, subjects and buckets of one pool. Several pools
// (projects) may share one NATS server; each has its own.
type names struct {
	pool           string
	taskStream     string // work queue, file storage
	taskSubject    string
	workerConsumer string // the one durable pull consumer every worker shares
	resultStream   string // limits stream
	resultSubject  string // + ".<attempt>"
	resultConsumer string // the coordinator's durable consumer
	bucket         string // object store for payloads above the message limit
	hostPrefix     string // + ".<attempt>": ctx.Query / ctx.Product request/reply
	cancelSubject  string // broadcast: the attempt to stop
	heartbeat      string // workers announce themselves here
	maxDeliveries  string // advisory of a task that reached MaxDeliver
}

var poolName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

func namesFor(pool string) (names, error) {
	if pool == "" {
		pool = "default"
	}
	if !poolName.MatchString(pool) {
		return names{}, fmt.Errorf("pool name %q: want 1-64 letters, digits, '-' or '_'", pool)
	}
	n := names{pool: pool,
		taskStream: "STRATA_TASKS_" + pool, taskSubject: "strata.task." + pool, workerConsumer: "workers",
		resultStream: "STRATA_RESULTS_" + pool, resultSubject: "strata.result." + pool, resultConsumer: "coordinator",
		bucket: "strata_blobs_" + pool, hostPrefix: "strata.host." + pool, cancelSubject: "strata.cancel." + pool,
		heartbeat: "strata.heartbeat." + pool}
	n.maxDeliveries = "$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES." + n.taskStream + "." + n.workerConsumer
	return n, nil
}

func (n names) hostSubject(attempt uint64) string {
	return n.hostPrefix + "." + strconv.FormatUint(attempt, 10)
}

func (n names) resultSubjectOf(attempt uint64) string {
	return n.resultSubject + "." + strconv.FormatUint(attempt, 10)
}

// taskID and resultID are the JetStream message ids: a retried publish of
// the same dispatch is a duplicate, a new attempt never is.
func taskID(label string, attempt uint64) string {
	return "task/" + label + "/" + strconv.FormatUint(attempt, 10)
}

func resultID(label string, attempt uint64, worker string) string {
	// Two workers that ran the same redelivered task publish two results
	// under the same attempt; both must reach the coordinator, which keeps
	// the first. The worker makes the ids distinct.
	return "result/" + label + "/" + strconv.FormatUint(attempt, 10) + "/" + worker
}

// taskHeader is what a task message carries besides its input tables.
type taskHeader struct {
	// Label is "<run>/<block>[/<child>]", from ExecRequest.Task.
	Label   string                `json:"label"`
	Attempt uint64                `json:"attempt"`
	Exec    *protocol.ExecRequest `json:"exec"`
	// Sent is when the coordinator published it (for queue-time figures).
	Sent time.Time `json:"sent"`
	// Build, when set, is the compiled worker binary to run the block on;
	// a worker that cannot (another platform, none allowed) runs
	// Exec.Source interpreted and says so in its result.
	Build *BuildRef `json:"build,omitempty"`
}

// BuildRef names a compiled worker binary in the pool's object store.
type BuildRef struct {
	Hash     string `json:"hash"`     // kernel/build's content hash
	Platform string `json:"platform"` // GOOS/GOARCH it runs on
	Object   string `json:"object"`   // its name in the bucket
	Size     int64  `json:"size"`
	SHA256   string `json:"sha256"`
}

// resultHeader ends a task: the kernel's result and what it streamed, which
// the coordinator replays into the run's handler in order.
type resultHeader struct {
	Label   string           `json:"label"`
	Attempt uint64           `json:"attempt"`
	Worker  string           `json:"worker"`
	Engine  string           `json:"engine,omitempty"` // interp or compiled
	Result  *protocol.Result `json:"result"`
	Output  []outputChunk    `json:"output,omitempty"`
}

// outputChunk is one Stream or Log call of the running block.
type outputChunk struct {
	Stream string            `json:"stream,omitempty"`
	Data   string            `json:"data,omitempty"`
	Log    *protocol.LogLine `json:"log,omitempty"`
}

// hostReply answers a host call; the table follows when Error is empty.
type hostReply struct {
	Error string `json:"error,omitempty"`
	// Secret is a ctx.Secret's value, sealed to the asking worker's key;
	// no table follows it.
	Secret *sealedSecret `json:"secret,omitempty"`
}

// Heartbeat is what a worker announces every few seconds.
type Heartbeat struct {
	ID      string `json:"id"` // host/pid/random: unique per worker process
	Host    string `json:"host"`
	PID     int    `json:"pid"`
	Slots   int    `json:"slots"`
	Busy    int    `json:"busy"`
	Version string `json:"version"`
	Local   bool   `json:"local,omitempty"` // the coordinator's own kernels
	// Platform is GOOS/GOARCH; Compiled says the worker runs shipped
	// compiled builds of that platform (else every task runs interpreted).
	Platform string    `json:"platform,omitempty"`
	Compiled bool      `json:"compiled,omitempty"`
	Started  time.Time `json:"started"`
	At       time.Time `json:"at"`
	// Leaving is set by the last heartbeat of a worker that shuts down.
	Leaving bool `json:"leaving,omitempty"`
}

// encodeFrame lays out a JSON header and tables: u32 header length, header,
// then each table in the kernel protocol's encoding.
func encodeFrame(hdr any, tables ...*sdk.Table) ([]byte, error) {
	h, err := json.Marshal(hdr)
	if err != nil {
		return nil, err
	}
	b := binary.LittleEndian.AppendUint32(make([]byte, 0, 4+len(h)+64), uint32(len(h)))
	b = append(b, h...)
	for _, t := range tables {
		if t == nil {
			t = sdk.NewTable()
		}
		if b, err = protocol.AppendTable(b, t); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// decodeFrame reads what encodeFrame wrote; it returns the tables after
// the header.
func decodeFrame(b []byte, hdr any) ([]*sdk.Table, error) {
	if len(b) < 4 {
		return nil, fmt.Errorf("frame of %d bytes: too short for a header", len(b))
	}
	n := binary.LittleEndian.Uint32(b)
	if int(n) > len(b)-4 {
		return nil, fmt.Errorf("frame header of %d bytes in a %d byte frame", n, len(b))
	}
	if err := json.Unmarshal(b[4:4+n], hdr); err != nil {
		return nil, fmt.Errorf("frame header: %w", err)
	}
	rest := b[4+n:]
	var out []*sdk.Table
	for len(rest) > 0 {
		t, used, err := protocol.DecodeTable(rest)
		if err != nil {
			return nil, fmt.Errorf("table %d: %w", len(out), err)
		}
		out = append(out, t)
		rest = rest[used:]
	}
	return out, nil
}
