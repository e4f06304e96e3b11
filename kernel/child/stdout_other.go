//go:build !linux

package child

import "os"

// guardStdout cannot swap descriptors portably here; the interpreter's own
// stdout redirection still keeps block output off the protocol stream.
func guardStdout() (*os.File, error) { return os.Stdout, nil }
