package lsp

import "testing"

// Edits address text by line and UTF-16 unit, as the protocol (and
// CodeMirror's client) counts: é is one unit, 😀 two.
func TestApplyEditUTF16(t *testing.T) {
	t.Parallel()
	text := "a\n\"é😀x\"\nlast"
	cases := []struct {
		from, to lspPos
		insert   string
		want     string
	}{
		{lspPos{1, 4}, lspPos{1, 4}, "!", "a\n\"é😀!x\"\nlast"},
		{lspPos{1, 2}, lspPos{1, 4}, "", "a\n\"éx\"\nlast"},
		{lspPos{0, 9}, lspPos{1, 0}, "", "a\"é😀x\"\nlast"}, // past a line's end: its end
		{lspPos{2, 4}, lspPos{2, 4}, "\n", "a\n\"é😀x\"\nlast\n"},
	}
	for _, c := range cases {
		got, err := applyEdit(text, c.from, c.to, c.insert)
		if err != nil || got != c.want {
			t.Errorf("%v..%v %q: got %q %v, want %q", c.from, c.to, c.insert, got, err, c.want)
		}
	}
	if _, err := applyEdit(text, lspPos{5, 0}, lspPos{5, 0}, "x"); err == nil {
		t.Error("a line past the end was accepted")
	}
}
