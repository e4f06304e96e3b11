package fingerprint

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
)

// Code identifies what a block computes, so that only a change of
// meaning makes its partitions stale: comments and layout are left out. A Go
// block is hashed as its syntax tree without comments or positions; a SQL
// block with comments removed and whitespace outside quotes collapsed.
// Source that does not parse is hashed as written.
//
// Every run reads its blocks' files (an editor save applies to the next
// run), so the canonical form is memoized by the raw bytes' digest: a
// backfill parses each block once, not once per partition.
func Code(path string, src []byte) string {
	raw := sha256.Sum256(append([]byte(filepath.Ext(path)+"\x00"), src...))
	if h, ok := codeHashes.Load(raw); ok {
		return h.(string)
	}
	h := canonicalHash(path, src)
	codeHashes.Store(raw, h)
	return h
}

// codeHashes maps the digest of (extension, raw source) to its code hash.
// It grows by one entry per distinct source text seen by the process.
var codeHashes sync.Map

func canonicalHash(path string, src []byte) string {
	canon := src
	switch strings.ToLower(filepath.Ext(path)) {
	case ".go":
		if c, ok := canonicalGo(src); ok {
			canon = c
		}
	case ".sql":
		canon = []byte(canonicalSQL(string(src)))
	}
	sum := sha256.Sum256(canon)
	return hex.EncodeToString(sum[:8])
}

// canonicalGo writes the syntax tree without comments or positions: each
// node's type and its scalar fields (names, literals, operators), nested as
// in the tree. Layout and comments leave no trace in it.
func canonicalGo(src []byte) ([]byte, bool) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "block.go", src, parser.SkipObjectResolution) // no comments
	if err != nil {
		return nil, false
	}
	posType := reflect.TypeFor[token.Pos]()
	var b bytes.Buffer
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			b.WriteByte(')')
			return false
		}
		v := reflect.Indirect(reflect.ValueOf(n))
		b.WriteString("(" + v.Type().Name())
		for i := 0; i < v.NumField(); i++ {
			fv := v.Field(i)
			if fv.Type() == posType {
				continue
			}
			switch fv.Kind() {
			case reflect.String, reflect.Bool, reflect.Int:
				fmt.Fprintf(&b, " %q", fmt.Sprint(fv.Interface()))
			}
		}
		return true
	})
	return b.Bytes(), true
}

// canonicalSQL drops -- and /* */ comments and turns every run of
// whitespace outside string literals and quoted identifiers into one space.
func canonicalSQL(q string) string {
	var b strings.Builder
	space := false
	emit := func(s string) {
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteString(s)
	}
	for i := 0; i < len(q); {
		c := q[i]
		switch {
		case c == '-' && i+1 < len(q) && q[i+1] == '-':
			for i < len(q) && q[i] != '\n' {
				i++
			}
			space = true
		case c == '/' && i+1 < len(q) && q[i+1] == '*':
			end := strings.Index(q[i+2:], "*/")
			if end < 0 {
				i = len(q)
			} else {
				i += end + 4
			}
			space = true
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			space = true
			i++
		case c == '\'' || c == '"':
			// A quoted run, with the doubled quote as its escape.
			j := i + 1
			for j < len(q) {
				if q[j] == c {
					if j+1 < len(q) && q[j+1] == c {
						j += 2
						continue
					}
					break
				}
				j++
			}
			end := min(j+1, len(q))
			emit(q[i:end])
			i = end
		default:
			emit(q[i : i+1])
			i++
		}
	}
	return b.String()
}
