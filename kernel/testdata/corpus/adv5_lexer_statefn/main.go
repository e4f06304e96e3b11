package main

import (
	"fmt"
	"strings"
	"unicode"
)

type tokenKind int

const (
	tIdent tokenKind = iota
	tNumber
	tOp
	tError
	tEOF
)

var kindNames = map[tokenKind]string{tIdent: "IDENT", tNumber: "NUM", tOp: "OP", tError: "ERR", tEOF: "EOF"}

type token struct {
	kind tokenKind
	text string
}

type lexer struct {
	input  string
	start  int
	pos    int
	tokens []token
}

type stateFn func(*lexer) stateFn

func (l *lexer) emit(k tokenKind) {
	l.tokens = append(l.tokens, token{k, l.input[l.start:l.pos]})
	l.start = l.pos
}

func (l *lexer) peek() rune {
	if l.pos >= len(l.input) {
		return 0
	}
	return rune(l.input[l.pos])
}

func lexAny(l *lexer) stateFn {
	for l.pos < len(l.input) && l.input[l.pos] == ' ' {
		l.pos++
	}
	l.start = l.pos
	r := l.peek()
	switch {
	case r == 0:
		l.emit(tEOF)
		return nil
	case unicode.IsLetter(r):
		return lexIdent
	case unicode.IsDigit(r):
		return lexNumber
	case strings.ContainsRune("+-*/()=", r):
		l.pos++
		l.emit(tOp)
		return lexAny
	}
	l.tokens = append(l.tokens, token{tError, fmt.Sprintf("unexpected %q at %d", r, l.pos)})
	return nil
}

func lexIdent(l *lexer) stateFn {
	for unicode.IsLetter(l.peek()) || unicode.IsDigit(l.peek()) {
		l.pos++
	}
	l.emit(tIdent)
	return lexAny
}

func lexNumber(l *lexer) stateFn {
	for unicode.IsDigit(l.peek()) || l.peek() == '.' {
		l.pos++
	}
	l.emit(tNumber)
	return lexAny
}

func lex(s string) []token {
	l := &lexer{input: s}
	for state := stateFn(lexAny); state != nil; {
		state = state(l)
	}
	return l.tokens
}

func (t token) String() string { return kindNames[t.kind] + ":" + t.text }

func main() {
	for _, src := range []string{"x1 = (y + 42) * 3.5", "a#b", ""} {
		toks := lex(src)
		var parts []string
		for _, t := range toks {
			parts = append(parts, t.String())
		}
		fmt.Printf("%-22q %d %s\n", src, len(toks), strings.Join(parts, " "))
	}
}
