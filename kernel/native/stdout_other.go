//go:build !linux

package native

import "os"

// redirectFD1 cannot swap descriptors portably; os.Stdout alone is redirected.
func redirectFD1(*os.File) error { return nil }
