package lsp

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// gopls holds one document per file, but two tabs may have the same block
// open with different unsaved text. The proxy keeps each connection's own
// text of each open file, applies that connection's edits to it, and gives
// gopls the text of whichever connection is asking (a full-text change when
// it differs from what gopls holds), under versions of its own. gopls
// closes a file only when the last connection closes it, and diagnostics go
// to the connections whose text is the one they were computed for, with
// each connection's own version.

// sharedDoc is one file open in one or more connections.
type sharedDoc struct {
	lang    string
	texts   map[*Client]string // each connection's text
	vers    map[*Client]int    // each connection's latest version
	held    string             // the text gopls holds
	heldBy  *Client            // whose text that is
	version int                // the version gopls holds it at
}

type docParams struct {
	TextDocument struct {
		URI        string `json:"uri"`
		LanguageID string `json:"languageId"`
		Version    int    `json:"version"`
		Text       string `json:"text"`
	} `json:"textDocument"`
	ContentChanges []struct {
		Range *struct {
			Start lspPos `json:"start"`
			End   lspPos `json:"end"`
		} `json:"range"`
		Text string `json:"text"`
	} `json:"contentChanges"`
}

type lspPos struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// documentMessage handles didOpen, didChange and didClose of connection c,
// writing to gopls what keeps its document right.
func (p *Proxy) documentMessage(c *Client, method string, params json.RawMessage) error {
	var dp docParams
	if err := json.Unmarshal(params, &dp); err != nil {
		return fmt.Errorf("lsp: %s params: %w", method, err)
	}
	uri := dp.TextDocument.URI
	p.docMu.Lock()
	defer p.docMu.Unlock()
	d := p.docs[uri]
	switch method {
	case "textDocument/didOpen":
		c.mu.Lock()
		c.open[uri] = true
		c.mu.Unlock()
		if d == nil {
			d = &sharedDoc{lang: dp.TextDocument.LanguageID, texts: map[*Client]string{}, vers: map[*Client]int{}}
			p.docs[uri] = d
			d.texts[c], d.vers[c] = dp.TextDocument.Text, dp.TextDocument.Version
			d.held, d.heldBy, d.version = dp.TextDocument.Text, c, 1
			return p.write(mustJSON(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didOpen",
				"params": map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": d.lang, "version": d.version, "text": d.held}}}))
		}
		d.texts[c], d.vers[c] = dp.TextDocument.Text, dp.TextDocument.Version
		return p.syncLocked(c, uri, d)
	case "textDocument/didChange":
		if d == nil || !hasText(d, c) {
			return nil // a change of a file this connection did not open
		}
		text := d.texts[c]
		for _, ch := range dp.ContentChanges {
			if ch.Range == nil {
				text = ch.Text
				continue
			}
			var err error
			if text, err = applyEdit(text, ch.Range.Start, ch.Range.End, ch.Text); err != nil {
				return fmt.Errorf("lsp: didChange of %s: %w", uri, err)
			}
		}
		d.texts[c], d.vers[c] = text, dp.TextDocument.Version
		if d.heldBy == c {
			// gopls holds this connection's text before the change: pass
			// the change on as it is, under gopls's version.
			d.held = text
			d.version++
			var raw map[string]any
			_ = json.Unmarshal(params, &raw)
			raw["textDocument"] = map[string]any{"uri": uri, "version": d.version}
			return p.write(mustJSON(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didChange", "params": raw}))
		}
		return p.syncLocked(c, uri, d)
	case "textDocument/didClose":
		return p.closeLocked(c, uri)
	}
	return nil
}

func hasText(d *sharedDoc, c *Client) bool { _, ok := d.texts[c]; return ok }

// closeLocked drops connection c's text of uri; gopls closes the file when
// nobody has it open. Call with docMu held.
func (p *Proxy) closeLocked(c *Client, uri string) error {
	c.mu.Lock()
	delete(c.open, uri)
	c.mu.Unlock()
	d := p.docs[uri]
	if d == nil || !hasText(d, c) {
		return nil
	}
	delete(d.texts, c)
	delete(d.vers, c)
	if len(d.texts) == 0 {
		delete(p.docs, uri)
		return p.write(mustJSON(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didClose",
			"params": map[string]any{"textDocument": map[string]any{"uri": uri}}}))
	}
	if d.heldBy == c {
		d.heldBy = nil // another connection's text goes to gopls on its next message
		for o := range d.texts {
			return p.syncLocked(o, uri, d)
		}
	}
	return nil
}

// syncLocked makes gopls hold connection c's text of uri. Call with docMu held.
func (p *Proxy) syncLocked(c *Client, uri string, d *sharedDoc) error {
	text, ok := d.texts[c]
	if !ok {
		return nil
	}
	if d.held == text {
		d.heldBy = c
		return nil
	}
	d.held, d.heldBy = text, c
	d.version++
	return p.write(mustJSON(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didChange",
		"params": map[string]any{"textDocument": map[string]any{"uri": uri, "version": d.version}, "contentChanges": []any{map[string]any{"text": text}}}}))
}

// syncFor makes gopls hold c's text of the document a request names, so
// the answer is about what that connection shows.
func (p *Proxy) syncFor(c *Client, params json.RawMessage) error {
	var dp struct {
		TextDocument struct {
			URI string `json:"uri"`
		} `json:"textDocument"`
	}
	if json.Unmarshal(params, &dp) != nil || dp.TextDocument.URI == "" {
		return nil
	}
	p.docMu.Lock()
	defer p.docMu.Unlock()
	if d := p.docs[dp.TextDocument.URI]; d != nil {
		return p.syncLocked(c, dp.TextDocument.URI, d)
	}
	return nil
}

// diagnosticsFor rewrites gopls's diagnostics of uri for each connection
// whose text they were computed from (gopls's version then), with that
// connection's version; stale ones go nowhere.
func (p *Proxy) diagnosticsFor(raw []byte) map[*Client][]byte {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	var params map[string]any
	if json.Unmarshal(m["params"], &params) != nil {
		return nil
	}
	uri, _ := params["uri"].(string)
	p.docMu.Lock()
	defer p.docMu.Unlock()
	d := p.docs[uri]
	if d == nil {
		return nil
	}
	if v, ok := params["version"].(float64); ok && int(v) != d.version {
		return nil // about a text gopls no longer holds
	}
	out := map[*Client][]byte{}
	for c, text := range d.texts {
		if text != d.held {
			continue
		}
		params["version"] = d.vers[c]
		out[c] = mustJSON(map[string]any{"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics", "params": params})
	}
	return out
}

// applyEdit replaces the range from..to of text (LSP positions: line and
// UTF-16 offset) with insert.
func applyEdit(text string, from, to lspPos, insert string) (string, error) {
	a, err := offsetOf(text, from)
	if err != nil {
		return "", err
	}
	b, err := offsetOf(text, to)
	if err != nil {
		return "", err
	}
	if b < a {
		return "", fmt.Errorf("range end %d:%d is before its start %d:%d", to.Line, to.Character, from.Line, from.Character)
	}
	return text[:a] + insert + text[b:], nil
}

// offsetOf is the byte offset of an LSP position in text; a character past
// the end of its line means the line's end, as the protocol says.
func offsetOf(text string, pos lspPos) (int, error) {
	off := 0
	for i := 0; i < pos.Line; i++ {
		nl := strings.IndexByte(text[off:], '\n')
		if nl < 0 {
			return 0, fmt.Errorf("line %d is past the end of the document (%d lines)", pos.Line, i+1)
		}
		off += nl + 1
	}
	units := 0
	for off < len(text) && text[off] != '\n' && units < pos.Character {
		r, size := utf8.DecodeRuneInString(text[off:])
		if r >= 0x10000 {
			units += 2
		} else {
			units++
		}
		off += size
	}
	return off, nil
}
