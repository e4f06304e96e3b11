package lsp

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// maxMessage bounds one message from gopls: a completion list of a large
// package is a few MiB; anything near this is a broken stream.
const maxMessage = 64 << 20

// readMessage reads one LSP message (Content-Length framed) from r.
func readMessage(r *bufio.Reader) ([]byte, error) {
	length := -1
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			break
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fmt.Errorf("lsp: header line %q has no ':'", line)
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.Atoi(strings.TrimSpace(value))
			if err != nil || n < 0 || n > maxMessage {
				return nil, fmt.Errorf("lsp: bad Content-Length %q (expected 0..%d)", value, maxMessage)
			}
			length = n
		}
	}
	if length < 0 {
		return nil, fmt.Errorf("lsp: message without a Content-Length header")
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, fmt.Errorf("lsp: read %d-byte body: %w", length, err)
	}
	return body, nil
}

// writeMessage writes body with its Content-Length header.
func writeMessage(w io.Writer, body []byte) error {
	if _, err := fmt.Fprintf(w, "Content-Length: %d\r\n\r\n", len(body)); err != nil {
		return err
	}
	_, err := w.Write(body)
	return err
}
