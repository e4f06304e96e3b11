package project

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Problem is one thing wrong with a project, located precisely enough for an
// editor to underline it and for a terminal user to jump to it.
type Problem struct {
	File    string `json:"file"`             // relative to the project folder, slash-separated
	Line    int    `json:"line,omitempty"`   // 1-based; 0 when the problem concerns the whole file
	Column  int    `json:"column,omitempty"` // 1-based; 0 when unknown
	Field   string `json:"field,omitempty"`  // path inside a YAML file, such as blocks[2].upstream[0]
	Message string `json:"message"`          // what is wrong and what was expected
}

// String formats the problem as file:line:col: field: message, the shape
// compilers use, so terminals and editors can jump to it.
func (p Problem) String() string {
	var b strings.Builder
	b.WriteString(p.File)
	if p.Line > 0 {
		fmt.Fprintf(&b, ":%d", p.Line)
		if p.Column > 0 {
			fmt.Fprintf(&b, ":%d", p.Column)
		}
	}
	b.WriteString(": ")
	if p.Field != "" {
		b.WriteString(p.Field)
		b.WriteString(": ")
	}
	b.WriteString(p.Message)
	return b.String()
}

// Problems is every problem found while loading, in file and line order.
// Loading never stops at the first problem: a data engineer fixes a pipeline
// in one pass, not one error per run.
type Problems []Problem

// Error lists the problems one per line.
func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// Err returns ps as an error, or nil when there is no problem. Returning a nil
// Problems as an error would give a non-nil interface; use this instead.
func (ps Problems) Err() error {
	if len(ps) == 0 {
		return nil
	}
	return ps
}

// ForFile returns the problems located in one file (slash-separated and
// relative to the project folder), for an editor showing that file.
func (ps Problems) ForFile(file string) Problems {
	var out Problems
	for _, p := range ps {
		if p.File == file {
			out = append(out, p)
		}
	}
	return out
}

// normalize sorts problems the way a reader fixes them, strata.yaml first,
// then pipeline files, then block files, each by line and column, and drops
// exact duplicates, which appear when two pipelines share a broken block file.
func (ps Problems) normalize() Problems {
	rank := func(file string) int {
		switch {
		case file == ProjectFile:
			return 0
		case strings.HasPrefix(file, PipelinesDir+"/"):
			return 1
		}
		return 2
	}
	slices.SortStableFunc(ps, func(a, b Problem) int {
		return cmp.Or(
			cmp.Compare(rank(a.File), rank(b.File)),
			strings.Compare(a.File, b.File),
			cmp.Compare(a.Line, b.Line),
			cmp.Compare(a.Column, b.Column),
		)
	})
	out := ps[:0]
	seen := make(map[Problem]bool, len(ps))
	for _, p := range ps {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// didYouMean returns ` (did you mean "x"?)` for the candidate closest to word,
// or "" when none is close enough to be a likely typo.
func didYouMean(word string, candidates []string) string {
	if s := closest(word, candidates); s != "" {
		return fmt.Sprintf(" (did you mean %q?)", s)
	}
	return ""
}

// closest returns the candidate within a small edit distance of word,
// ignoring case, or "" when there is none.
func closest(word string, candidates []string) string {
	w := strings.ToLower(word)
	best, bestDist := "", 0
	for _, c := range candidates {
		d := editDistance(w, strings.ToLower(c))
		limit := 2
		if len(c) <= 4 {
			limit = 1
		}
		if d <= limit && (best == "" || d < bestDist) {
			best, bestDist = c, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, counting an
// adjacent transposition as one edit ("upsteram" is one edit from "upstream").
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

// plural formats a count with its noun: "1 upstream", "2 upstreams".
func plural(n int, noun string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// quoteList formats names as a comma-separated list for messages.
func quoteList(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}
