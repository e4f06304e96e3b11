//go:build linux || darwin || freebsd || netbsd || openbsd

package server

import (
	"net"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// socketWritable reports whether the connection's socket has room to
// write without blocking (POLLOUT), waiting up to d. A client that does not
// read fills its receive buffer and then our send buffer; writing on would
// block mid-frame until the write deadline and end in a bare TCP close.
// Waiting for room instead leaves space in the buffer for the close frame
// (1008) when the client is given up on. Connections that are not sockets
// (tests over pipes) are always writable.
func socketWritable(conn net.Conn, d time.Duration) bool {
	sc, ok := conn.(syscall.Conn)
	if !ok {
		return true
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return true
	}
	ready := true
	_ = rc.Control(func(fd uintptr) {
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLOUT}}
		for {
			n, err := unix.Poll(fds, int(d/time.Millisecond))
			if err == unix.EINTR {
				continue
			}
			ready = err != nil || (n > 0 && fds[0].Revents&unix.POLLOUT != 0) || fds[0].Revents&(unix.POLLERR|unix.POLLHUP) != 0
			return
		}
	})
	return ready
}
