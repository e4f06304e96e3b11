package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// signalContext is cancelled by Ctrl+C or SIGTERM, so a run is interrupted
// cleanly instead of leaving a kernel behind.
func signalContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}
