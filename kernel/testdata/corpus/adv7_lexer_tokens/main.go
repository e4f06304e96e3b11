package main

import (
	"fmt"
	"strings"
	"unicode"
)

type Kind int

const (
	EOF Kind = iota
	Ident
	Number
	String
	Op
	LParen
	RParen
	Illegal
)

var kindNames = map[Kind]string{EOF: "EOF", Ident: "IDENT", Number: "NUM", String: "STR", Op: "OP", LParen: "(", RParen: ")", Illegal: "ILLEGAL"}

type Token struct {
	Kind Kind
	Text string
	Pos  int
}

type Lexer struct {
	src []rune
	pos int
}

func (l *Lexer) peek() rune {
	if l.pos >= len(l.src) {
		return 0
	}
	return l.src[l.pos]
}

func (l *Lexer) Next() Token {
	for unicode.IsSpace(l.peek()) {
		l.pos++
	}
	start := l.pos
	r := l.peek()
	switch {
	case r == 0:
		return Token{EOF, "", start}
	case unicode.IsLetter(r) || r == '_':
		for unicode.IsLetter(l.peek()) || unicode.IsDigit(l.peek()) || l.peek() == '_' {
			l.pos++
		}
		return Token{Ident, string(l.src[start:l.pos]), start}
	case unicode.IsDigit(r):
		dot := false
		for unicode.IsDigit(l.peek()) || (!dot && l.peek() == '.') {
			if l.peek() == '.' {
				dot = true
			}
			l.pos++
		}
		return Token{Number, string(l.src[start:l.pos]), start}
	case r == '"':
		l.pos++
		var sb strings.Builder
		for l.peek() != '"' && l.peek() != 0 {
			if l.peek() == '\\' {
				l.pos++
			}
			sb.WriteRune(l.peek())
			l.pos++
		}
		l.pos++
		return Token{String, sb.String(), start}
	case strings.ContainsRune("+-*/=<>!", r):
		l.pos++
		if l.peek() == '=' {
			l.pos++
		}
		return Token{Op, string(l.src[start:l.pos]), start}
	case r == '(':
		l.pos++
		return Token{LParen, "(", start}
	case r == ')':
		l.pos++
		return Token{RParen, ")", start}
	}
	l.pos++
	return Token{Illegal, string(r), start}
}

func main() {
	src := `let größe = (x1 + 3.14) * 2 >= "a \"q\"" # ok`
	lx := &Lexer{src: []rune(src)}
	counts := map[Kind]int{}
	for {
		t := lx.Next()
		counts[t.Kind]++
		fmt.Printf("%-7s %-8q @%d\n", kindNames[t.Kind], t.Text, t.Pos)
		if t.Kind == EOF {
			break
		}
	}
	for k := EOF; k <= Illegal; k++ {
		if counts[k] > 0 {
			fmt.Print(kindNames[k], ":", counts[k], " ")
		}
	}
	fmt.Println()
}
