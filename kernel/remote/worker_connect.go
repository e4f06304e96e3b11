package remote

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
)

// WorkerConnect connects a worker to the coordinator's NATS server. A
// server that cannot be reached yet (the coordinator starts after its
// workers, or restarts while a Deployment brings workers up) is retried
// forever with the same waits as after a disconnect, rather than ending
// the worker: the caller gets a connection at once, and the agent binds to
// the pool when the server comes. A listener whose certificate the worker
// does not trust ends the wait, as a wrong token does. What happens is
// written to log: a failure at most every 30 s, and the connect.
func WorkerConnect(url string, log io.Writer, opts ...nats.Option) (*nats.Conn, error) {
	var mu sync.Mutex
	var said time.Time // when a failure was last written, so a retry loop does not flood the log
	say := func(err error) {
		mu.Lock()
		defer mu.Unlock()
		if time.Since(said) >= 30*time.Second {
			said = time.Now()
			fmt.Fprintf(log, "strata worker: NATS at %s unreachable (%v); retrying until it answers\n", url, err)
		}
	}
	opts = append(opts, nats.RetryOnFailedConnect(true),
		nats.ConnectHandler(func(nc *nats.Conn) {
			fmt.Fprintf(log, "strata worker: connected to NATS at %s\n", nc.ConnectedUrlRedacted())
		}),
		nats.ReconnectErrHandler(func(c *nats.Conn, err error) {
			if untrusted(err) {
				// A certificate this worker does not trust is no server
				// that has yet to come up: end, as a wrong token ends.
				fmt.Fprintf(log, "strata worker: NATS at %s refused: %v\n", url, err)
				go c.Close()
				return
			}
			say(err)
		}),
	)
	nc, err := nats.Connect(url, opts...)
	if err != nil {
		return nil, err // a bad URL or option, not an unreachable server
	}
	if !nc.IsConnected() {
		fmt.Fprintf(log, "strata worker: NATS at %s not reachable yet; retrying until it answers\n", url)
	}
	return nc, nil
}
