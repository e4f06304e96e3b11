package notebook

import (
	"regexp"
	"strconv"
	"strings"
)

// DuckDB names where a SQL error is: "LINE 2:        no_such_column" and,
// below it, a caret under the spot. The cell's text is the query as
// written, so its line is the cell's line; the column is taken from the
// caret only when DuckDB quoted the line whole (it shortens long lines).
var sqlErrorLine = regexp.MustCompile(`(?m)^LINE (\d+): (.*)\n( *)\^`)

// sqlErrorPosition is the 1-based line and column of a DuckDB error in
// source; 0 when the message names none (column 0 when it cannot be placed).
func sqlErrorPosition(msg, source string) (line, col int) {
	m := sqlErrorLine.FindStringSubmatch(msg)
	if m == nil {
		return 0, 0
	}
	line, _ = strconv.Atoi(m[1])
	lines := strings.Split(source, "\n")
	if line < 1 || line > len(lines) {
		return 0, 0
	}
	prefix := len("LINE " + m[1] + ": ")
	if quoted := strings.TrimRight(m[2], " \t\r"); quoted == strings.TrimRight(lines[line-1], " \t\r") && len(m[3]) >= prefix {
		col = len(m[3]) - prefix + 1
	}
	return line, col
}
