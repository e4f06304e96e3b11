//go:build !(linux || darwin || freebsd || netbsd || openbsd)

package server

import (
	"net"
	"time"
)

// socketWritable: without poll(2) every write is attempted (a client that
// never reads then ends with a bare TCP close instead of 1008).
func socketWritable(net.Conn, time.Duration) bool { return true }
