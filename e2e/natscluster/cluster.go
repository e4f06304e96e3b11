// Package natscluster starts a JetStream cluster of embedded nats-servers
// on loopback, for tests of what happens when a node (a stream's leader)
// goes away.
package natscluster

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// Cluster is n routed nats-servers with JetStream.
type Cluster struct {
	Servers []*server.Server
	// URLs is the client URL list (comma-separated), as nats.Connect and
	// `strata start --workers` take it.
	URLs string
}

// Start starts n nodes with token auth, each with its JetStream files in
// storeDir(i), and waits for a JetStream meta leader.
func Start(n int, token string, storeDir func(i int) string) (*Cluster, error) {
	ports, err := freePorts(2 * n) // a client and a route port each
	if err != nil {
		return nil, err
	}
	var routes, urls []string
	for i := 0; i < n; i++ {
		routes = append(routes, fmt.Sprintf("nats://127.0.0.1:%d", ports[n+i]))
	}
	c := &Cluster{}
	for i := 0; i < n; i++ {
		opts := &server.Options{
			ServerName: "n" + strconv.Itoa(i+1), Host: "127.0.0.1", Port: ports[i],
			JetStream: true, StoreDir: storeDir(i), JetStreamMaxMemory: 64 << 20, JetStreamMaxStore: 1 << 30,
			MaxPayload: 1 << 20, NoSigs: true, NoLog: true, Authorization: token,
			Cluster: server.ClusterOpts{Name: "strata-test", Host: "127.0.0.1", Port: ports[n+i]},
			Routes:  server.RoutesFromStr(strings.Join(routes, ",")),
		}
		ns, err := server.NewServer(opts)
		if err != nil {
			c.Shutdown()
			return nil, err
		}
		go ns.Start()
		c.Servers = append(c.Servers, ns)
		urls = append(urls, ns.ClientURL())
	}
	c.URLs = strings.Join(urls, ",")
	for _, ns := range c.Servers {
		if !ns.ReadyForConnections(20 * time.Second) {
			c.Shutdown()
			return nil, errors.New("a cluster node did not become ready in 20s")
		}
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		leaders := 0
		for _, ns := range c.Servers {
			if ns.JetStreamIsLeader() {
				leaders++
			}
		}
		if leaders == 1 {
			return c, nil
		}
		if time.Now().After(deadline) {
			c.Shutdown()
			return nil, errors.New("the cluster elected no JetStream meta leader in 30s")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Stop shuts down the node named name (as JetStream names a leader).
func (c *Cluster) Stop(name string) bool {
	for _, ns := range c.Servers {
		if ns.Name() == name {
			ns.Shutdown()
			return true
		}
	}
	return false
}

// Shutdown stops every node.
func (c *Cluster) Shutdown() {
	for _, ns := range c.Servers {
		ns.Shutdown()
	}
}

// freePorts returns loopback ports nothing listens on now.
func freePorts(n int) ([]int, error) {
	var lns []net.Listener
	defer func() {
		for _, ln := range lns {
			ln.Close()
		}
	}()
	var ports []int
	for i := 0; i < n; i++ {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		lns = append(lns, ln)
		ports = append(ports, ln.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}
