//go:build !linux

package child

import "os"

// guardStdin cannot swap descriptors portably here.
func guardStdin() (*os.File, error) { return os.Stdin, nil }
