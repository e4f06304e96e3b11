//go:build !linux

package child

import "os"

// guardStdout cannot swap descriptors portably here; the interpreter's own
// stdout redirection still keeps block output off the protocol stream.
func guardStdout() (*os.File, error) { return os.Stdout, nil }

// guardStdin: the interpreter gives blocks an empty stdin of its own.
func guardStdin() (*os.File, error) { return os.Stdin, nil }
