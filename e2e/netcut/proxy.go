// Package netcut is a TCP proxy whose link can be cut and healed, for
// failure tests of processes that talk over the network (a worker and its
// NATS server). A cut is silent, as a network partition is: connections
// stay open and every byte is dropped both ways, so a client notices only
// by its own timeouts (pings, leases). Healing closes the connections the
// cut spoiled; clients reconnect through the proxy.
package netcut

import (
	"net"
	"sync"
)

// Proxy forwards connections on Addr to a target address.
type Proxy struct {
	ln     net.Listener
	target string

	mu    sync.Mutex
	cut   bool
	conns map[net.Conn]bool // both ends of every link
	links int               // links made, for tests that want to see a reconnect
}

// Start listens on a loopback port and forwards to target (host:port).
func Start(target string) (*Proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &Proxy{ln: ln, target: target, conns: map[net.Conn]bool{}}
	go p.serve()
	return p, nil
}

// Addr is where clients connect.
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// Links counts the connections forwarded so far.
func (p *Proxy) Links() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.links
}

// Cut drops every byte from now on, both ways, on open and new connections.
func (p *Proxy) Cut() {
	p.mu.Lock()
	p.cut = true
	p.mu.Unlock()
}

// Heal closes the connections the cut spoiled and forwards again.
func (p *Proxy) Heal() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cut = false
	for c := range p.conns {
		c.Close()
	}
	p.conns = map[net.Conn]bool{}
}

// Close stops the proxy and every link.
func (p *Proxy) Close() {
	p.ln.Close()
	p.Heal()
}

func (p *Proxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		s, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		p.conns[c], p.conns[s] = true, true
		p.links++
		p.mu.Unlock()
		go p.pipe(s, c)
		go p.pipe(c, s)
	}
}

// pipe copies src to dst, dropping what arrives while the link is cut.
func (p *Proxy) pipe(dst, src net.Conn) {
	defer dst.Close()
	defer src.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			p.mu.Lock()
			cut := p.cut
			p.mu.Unlock()
			if !cut {
				if _, werr := dst.Write(buf[:n]); werr != nil {
					return
				}
			}
		}
		if err != nil {
			return // EOF or closed: the other pipe ends when its end closes
		}
	}
}
