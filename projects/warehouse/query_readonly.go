package warehouse

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"unicode"

	"github.com/stratahq/strata/blocks/sdk"
)

// ErrNotReadOnly is wrapped by Query's refusal of a statement.
var ErrNotReadOnly = errors.New("only read-only statements are allowed")

var readOnlyKeywords = []string{"SELECT", "WITH", "FROM", "DESCRIBE", "SUMMARIZE", "SHOW", "EXPLAIN", "PRAGMA table_info"}

// Query runs one read-only statement and returns its result as a table:
// integers become int64, floats and decimals float64, dates and timestamps
// time (UTC), booleans bool, anything else its string form. Parameters bind
// to ? or $1 placeholders.
//
// Two guards keep it read-only. The statement must start with SELECT, WITH,
// FROM, DESCRIBE, SUMMARIZE, SHOW, EXPLAIN (whose target is checked the same
// way) or PRAGMA table_info, and must be a single statement. That check reads
// keywords only; it does not parse SQL, so it is a clear early refusal, not a
// sandbox. The statement then runs in a READ ONLY transaction, in which
// DuckDB itself refuses any write to the database. Neither guard stops
// reading files the process can read (read_csv, read_parquet): SQL blocks are
// trusted code of the project, and this is about not corrupting the
// warehouse by mistake.
func (w *Warehouse) Query(ctx context.Context, query string, args ...any) (*sdk.Table, error) {
	if err := checkReadOnly(query); err != nil {
		return nil, err
	}
	if err := w.useS3Secrets(ctx, query); err != nil {
		return nil, err
	}
	var out *sdk.Table
	err := w.readTx(ctx, func(conn *sql.Conn) error {
		var err error
		out, err = queryTable(ctx, conn, query, args...)
		return err
	})
	if err != nil {
		return nil, maskError(w.masks(), fmt.Errorf("query: %w", err))
	}
	return out, nil
}

// checkReadOnly applies the leading-keyword and single-statement rules.
func checkReadOnly(query string) error {
	words, ends, err := leadingWords(query, 3)
	if err != nil {
		return fmt.Errorf("query: %w", err)
	}
	if len(words) == 0 {
		return fmt.Errorf("query: empty statement")
	}
	refuse := func(what string) error {
		return fmt.Errorf("query: %w: this statement starts with %s (allowed: %s)", ErrNotReadOnly, what, strings.Join(readOnlyKeywords, ", "))
	}
	switch first := strings.ToUpper(words[0]); first {
	case "SELECT", "WITH", "FROM", "DESCRIBE", "SUMMARIZE", "SHOW":
		return nil
	case "PRAGMA":
		if len(words) > 1 && strings.EqualFold(words[1], "table_info") {
			return nil
		}
		return refuse("PRAGMA " + strings.Join(words[1:min(len(words), 2)], ""))
	case "EXPLAIN":
		// EXPLAIN ANALYZE runs its statement: check what is explained.
		rest := query[ends[0]:]
		if len(words) > 1 && strings.EqualFold(words[1], "ANALYZE") {
			rest = query[ends[1]:]
		}
		return checkReadOnly(rest)
	default:
		return refuse(first)
	}
}

// leadingWords returns the first n keywords of a statement and the offsets
// where they end, skipping comments, whitespace and opening parentheses, and
// fails when the text holds more than one statement.
func leadingWords(query string, n int) (words []string, ends []int, err error) {
	i := 0
	for i < len(query) {
		c := query[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '(':
			i++
		case strings.HasPrefix(query[i:], "--"):
			i = skipLineComment(query, i)
		case strings.HasPrefix(query[i:], "/*"):
			i = skipBlockComment(query, i)
		case c == '\'' || c == '"':
			i = skipQuoted(query, i, c)
		case c == '$':
			i = skipDollar(query, i)
		case c == ';':
			// Only comments and whitespace may follow the one statement.
			for j := i + 1; j < len(query); {
				switch {
				case unicode.IsSpace(rune(query[j])) || query[j] == ';':
					j++
				case strings.HasPrefix(query[j:], "--"):
					j = skipLineComment(query, j)
				case strings.HasPrefix(query[j:], "/*"):
					j = skipBlockComment(query, j)
				default:
					return nil, nil, fmt.Errorf("%w: more than one statement (split them into separate queries)", ErrNotReadOnly)
				}
			}
			return words, ends, nil
		case isWordByte(c):
			j := i
			for j < len(query) && isWordByte(query[j]) {
				j++
			}
			if len(words) < n {
				words = append(words, query[i:j])
				ends = append(ends, j)
			}
			i = j
		default:
			i++
		}
	}
	return words, ends, nil
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func skipLineComment(s string, i int) int {
	if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
		return i + j + 1
	}
	return len(s)
}

func skipBlockComment(s string, i int) int {
	if j := strings.Index(s[i+2:], "*/"); j >= 0 {
		return i + 2 + j + 2
	}
	return len(s)
}

// skipQuoted skips a '...' string or "..." identifier; a doubled quote is
// an escaped one. Backslash escapes of E'...' strings are honored too.
func skipQuoted(s string, i int, q byte) int {
	escapes := q == '\'' && i > 0 && (s[i-1] == 'e' || s[i-1] == 'E')
	for j := i + 1; j < len(s); j++ {
		switch {
		case escapes && s[j] == '\\':
			j++
		case s[j] == q:
			if j+1 < len(s) && s[j+1] == q {
				j++
				continue
			}
			return j + 1
		}
	}
	return len(s)
}

// skipDollar skips a $tag$...$tag$ string; $1 and $name parameters are one
// character long for the scanner.
func skipDollar(s string, i int) int {
	j := i + 1
	for j < len(s) && (s[j] == '_' || unicode.IsLetter(rune(s[j])) || (j > i+1 && s[j] >= '0' && s[j] <= '9')) {
		j++
	}
	if j >= len(s) || s[j] != '$' {
		return i + 1
	}
	tag := s[i : j+1]
	if k := strings.Index(s[j+1:], tag); k >= 0 {
		return j + 1 + k + len(tag)
	}
	return len(s)
}
