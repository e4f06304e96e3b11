package remote

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// ServerConfig configures an embedded NATS server.
type ServerConfig struct {
	// Listen is host:port for workers; empty serves in-process
	// connections only.
	Listen string
	// Token is what workers must present. A listener without one is refused
	// unless it is bound to loopback: an open listener runs anyone's code.
	Token string
	// StoreDir holds JetStream's files. Required: left empty, every process
	// on the machine would share $TMPDIR/nats/jetstream.
	StoreDir string
	// MaxMemory and MaxStore bound JetStream (defaults 256 MiB and 8 GiB).
	MaxMemory, MaxStore int64
	// TLS, when set, is required of every client on the listener. Off
	// loopback it is required: the token would otherwise cross the network
	// in clear, and with it anyone could run code.
	TLS *tls.Config
}

// StartServer starts an embedded NATS server with JetStream and waits
// until it takes connections.
func StartServer(cfg ServerConfig) (*server.Server, error) {
	if cfg.StoreDir == "" {
		return nil, errors.New("embedded NATS server: StoreDir is required (JetStream would share $TMPDIR/nats/jetstream with every other process)")
	}
	if cfg.MaxMemory <= 0 {
		cfg.MaxMemory = 256 << 20
	}
	if cfg.MaxStore <= 0 {
		cfg.MaxStore = 8 << 30
	}
	opts := &server.Options{
		ServerName: "strata", JetStream: true, StoreDir: cfg.StoreDir,
		JetStreamMaxMemory: cfg.MaxMemory, JetStreamMaxStore: cfg.MaxStore,
		MaxPayload: 1 << 20, NoSigs: true, NoLog: true, Authorization: cfg.Token,
	}
	if cfg.Listen == "" {
		opts.DontListen = true
	} else {
		host, port, err := net.SplitHostPort(cfg.Listen)
		if err != nil {
			return nil, fmt.Errorf("listen address %q: want host:port: %w", cfg.Listen, err)
		}
		if cfg.Token == "" && !isLoopback(host) {
			return nil, fmt.Errorf("listen for workers on %s without a token refused: anyone who reaches it could run code; give a token or bind to 127.0.0.1", cfg.Listen)
		}
		if cfg.TLS == nil && !isLoopback(host) {
			return nil, fmt.Errorf("listen for workers on %s without TLS refused: the token and the tasks would cross the network in clear; give a certificate (or let strata start make one) or bind to 127.0.0.1", cfg.Listen)
		}
		if cfg.TLS != nil {
			opts.TLS, opts.TLSConfig, opts.TLSTimeout = true, cfg.TLS, 5
		}
		opts.Host = host
		if opts.Port, err = strconv.Atoi(port); err != nil {
			return nil, fmt.Errorf("listen address %q: port: %w", cfg.Listen, err)
		}
		if opts.Port == 0 {
			opts.Port = server.RANDOM_PORT // the server reads 0 as its default, 4222
		}
	}
	ns, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("embedded NATS server: %w", err)
	}
	go ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) {
		ns.Shutdown()
		return nil, errors.New("embedded NATS server did not become ready within 10s")
	}
	return ns, nil
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// ConnectOptions are the options every Strata connection uses: agents
// notice a hung server within seconds, and reconnect forever.
func ConnectOptions(name string, extra ...nats.Option) []nats.Option {
	return append([]nats.Option{nats.Name(name), nats.PingInterval(5 * time.Second), nats.MaxPingsOutstanding(2),
		nats.MaxReconnects(-1), nats.ReconnectWait(500 * time.Millisecond)}, extra...)
}

// ConnectInProcess connects to an embedded server without a socket.
func ConnectInProcess(ns *server.Server, token, name string) (*nats.Conn, error) {
	opts := ConnectOptions(name, nats.InProcessServer(ns))
	if token != "" {
		opts = append(opts, nats.Token(token))
	}
	return nats.Connect("", opts...)
}
