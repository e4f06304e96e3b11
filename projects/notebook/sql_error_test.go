package notebook

import "testing"

func TestSQLErrorPosition(t *testing.T) {
	src := "SELECT key,\n       no_such_column\nFROM raw_orders"
	for _, tc := range []struct {
		msg       string
		line, col int
	}{
		{"Binder Error: Referenced column \"no_such_column\" not found in FROM clause!\nCandidate bindings: \"n\"\n\nLINE 2:        no_such_column\n               ^", 2, 8},
		{"Parser Error: syntax error at or near \"FROM\"\n\nLINE 3: FROM raw_orders\n        ^", 3, 1},
		// A shortened line: the line is known, the column is not.
		{"Binder Error: x\n\nLINE 2: ...no_such_column\n           ^", 2, 0},
		{"Catalog Error: Table with name nope does not exist!", 0, 0},
		{"Binder Error: x\n\nLINE 9: nope\n        ^", 0, 0}, // not a line of the cell
	} {
		if line, col := sqlErrorPosition(tc.msg, src); line != tc.line || col != tc.col {
			t.Errorf("%q: %d:%d, want %d:%d", tc.msg, line, col, tc.line, tc.col)
		}
	}
}
