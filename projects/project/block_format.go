package project

import (
	"fmt"
	"go/format"
)

// FormatGo is src as gofmt prints it: what "format on save" writes for a Go
// block. Source that does not parse is returned with the parse error, for
// the caller to save unformatted (the loader then reports where it breaks).
func FormatGo(file string, src []byte) ([]byte, error) {
	out, err := format.Source(src)
	if err != nil {
		return src, fmt.Errorf("%s: not formatted: %w", file, err)
	}
	return out, nil
}
