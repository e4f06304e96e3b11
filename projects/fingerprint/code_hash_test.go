package fingerprint

import "testing"

func TestCodeHashIgnoresCommentsAndLayout(t *testing.T) {
	t.Parallel()
	goSrc := "package b\n\nfunc Load() int { return 1 }\n"
	sqlSrc := "SELECT a, 'x  y' AS s FROM t WHERE b = 1"
	same := []struct{ path, a, b string }{
		{"b.go", goSrc, "// Package b loads.\npackage b\n\n// Load returns one.\nfunc Load() int {\n\treturn 1 // always\n}\n"},
		{"b.go", goSrc, "package b\nfunc Load() int {   return 1 }"},
		{"q.sql", sqlSrc, "-- the query\nSELECT a,\n       'x  y' AS s   /* keep */\nFROM t\nWHERE b = 1\n"},
	}
	for _, c := range same {
		if Code(c.path, []byte(c.a)) != Code(c.path, []byte(c.b)) {
			t.Errorf("%s: a comment or layout change changed the hash:\n%s\n---\n%s", c.path, c.a, c.b)
		}
	}
	differ := []struct{ path, a, b string }{
		{"b.go", goSrc, "package b\n\nfunc Load() int { return 2 }\n"},
		{"b.go", "package b\nfunc f(a, b int) int { return a - b }", "package b\nfunc f(a, b int) int { return a + b }"}, // an operator
		{"b.go", "package b\nvar s = \"a b\"", "package b\nvar s = \"a  b\""},                                            // inside a string
		{"q.sql", sqlSrc, "SELECT a, 'x y' AS s FROM t WHERE b = 1"},                                                     // inside a string
		{"q.sql", sqlSrc, "SELECT a, 'x  y' AS s FROM t WHERE b = 1 -- x\nAND c"},                                        // code after a comment
		{"q.sql", "SELECT '--' AS a", "SELECT '--' AS b"},                                                                // a comment marker inside quotes
		{"b.go", "package b\nfunc (", "package b\nfunc ( "},                                                              // unparsable: hashed as written
	}
	for _, c := range differ {
		if Code(c.path, []byte(c.a)) == Code(c.path, []byte(c.b)) {
			t.Errorf("%s: a change of meaning kept the hash:\n%s\n---\n%s", c.path, c.a, c.b)
		}
	}
}
