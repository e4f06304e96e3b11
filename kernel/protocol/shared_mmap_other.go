//go:build !linux

package protocol

import (
	"errors"
	"os"
)

// Elsewhere tables travel inline in the frame.
const sharingSupported = false

var errNoSharing = errors.New("shared table files need Linux")

func allocateFile(*os.File, int64) error      { return errNoSharing }
func mapFile(*os.File, int64) ([]byte, error) { return nil, errNoSharing }
func unmapFile([]byte) error                  { return errNoSharing }
