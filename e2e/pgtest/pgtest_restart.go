package pgtest

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// Restart stops the server (fast: its clients' connections break, as in a
// crash or failover of a real database) and starts it again on the same
// port with the same data, for tests of what a client does meanwhile.
func (c *Cluster) Restart(t testing.TB) {
	t.Helper()
	if c.cmd != nil && c.cmd.Process != nil {
		_ = c.cmd.Process.Signal(syscall.SIGINT)
		select {
		case <-c.done:
		case <-time.After(15 * time.Second):
			_ = c.cmd.Process.Kill()
			<-c.done
		}
		c.cmd = nil
	}
	owner, err := runAs()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.serve(owner, filepath.Join(c.Dir, "data")); err != nil {
		t.Fatalf("restart postgres: %v", err)
	}
}
