package partitions

import (
	"errors"
	"sort"
	"strings"
)

// Cells and boxes. A cell is a partition of a spec with value dimensions; a
// box is the cells a plan or a backfill targets: a time range and, per value
// dimension, a list of values (all of them when not named). A box is held as
// those lists, never as one object per cell, and its cells are computed as
// the loop asks for them, time outermost, so 365 days × 500 customers × 20
// regions plan in the memory of one day's cell suffixes.

// Box selects cells: From and To are time keys, both included (ignored
// without a time dimension); Where maps a value dimension's name to the
// values wanted, a dimension not named meaning all its values.
type Box struct {
	From, To string
	Where    map[string][]string
}

// parseCell parses a key of a spec with value dimensions.
func (s Spec) parseCell(key string) (Partition, error) {
	tk, values, err := s.split(key)
	if err != nil {
		return Partition{}, err
	}
	p := Partition{Key: key, Values: values}
	if s.hasTime() {
		tp, err := s.TimeOnly().Parse(tk)
		if err != nil {
			return Partition{}, cellError(key, err)
		}
		p.Start, p.End = tp.Start, tp.End
	}
	return p, nil
}

// cellError says which cell's time part an error is about.
func cellError(key string, err error) error {
	var e *Error
	if errors.As(err, &e) {
		return &Error{Kind: e.Kind, msg: "partition " + quote(key) + ": time part: " + e.msg}
	}
	return err
}

func quote(s string) string { return `"` + s + `"` }

// withValues makes the cell of time partition tp with values; a calendar
// partition when s has no value dimensions or values is nil.
func (s Spec) withValues(tp Partition, values []string) Partition {
	if len(s.Dims) == 0 || values == nil {
		return tp
	}
	return Partition{Key: s.compose(tp.Key, values), Start: tp.Start, End: tp.End, Values: values}
}

// overlappingCells maps partition p of s onto other when either has value
// dimensions: the time overlap as for calendars, crossed with other's
// values, where a dimension both specs have keeps p's value and a dimension
// only other has takes all its values (a day × region reader of a day
// product reads that day; a day reader of a day × region product reads
// every region of the day). A dimension of other whose key set is not
// loaded cannot be expanded and yields nothing, as does a time-less p
// against a timed other (unbounded, as for "all" in Covering).
func (s Spec) overlappingCells(p Partition, other Spec) []Partition {
	var times []Partition
	switch {
	case s.hasTime() && other.hasTime():
		tp := Partition{Key: s.TimeKey(p), Start: p.Start, End: p.End}
		times = s.TimeOnly().overlappingTime(tp, other.TimeOnly())
	case other.hasTime():
		return nil
	default:
		times = []Partition{{}}
	}
	sel := make([][]string, len(other.Dims))
	for i, d := range other.Dims {
		if v, ok := s.Value(p, d.Name); ok {
			if d.Loaded() && !d.Has(v) {
				return nil
			}
			sel[i] = []string{v}
			continue
		}
		if !d.Loaded() {
			return nil
		}
		sel[i] = d.Values()
	}
	combos := other.combos(sel)
	out := make([]Partition, 0, len(times)*len(combos))
	for _, t := range times {
		for _, c := range combos {
			out = append(out, c.cell(other, t))
		}
	}
	return out
}

// combo is one choice of a value per dimension with the key text around
// the time part, computed once per box rather than once per cell.
type combo struct {
	values    []string
	pre, post string
}

func (c combo) cell(s Spec, t Partition) Partition {
	if !s.hasTime() {
		return Partition{Key: c.pre, Values: c.values}
	}
	return Partition{Key: c.pre + t.Key + c.post, Start: t.Start, End: t.End, Values: c.values}
}

// combos lists every choice of one value from each of sel, the last
// dimension varying fastest.
func (s Spec) combos(sel [][]string) []combo {
	n := 1
	for _, vs := range sel {
		n *= len(vs)
	}
	out := make([]combo, 0, n)
	if n == 0 {
		return out
	}
	idx := make([]int, len(sel))
	for {
		values := make([]string, len(sel))
		for i, j := range idx {
			values[i] = sel[i][j]
		}
		out = append(out, s.comboOf(values))
		i := len(idx) - 1
		for ; i >= 0; i-- {
			if idx[i]++; idx[i] < len(sel[i]) {
				break
			}
			idx[i] = 0
		}
		if i < 0 {
			return out
		}
	}
}

func (s Spec) comboOf(values []string) combo {
	if !s.hasTime() {
		return combo{values: values, pre: strings.Join(values, KeySep)}
	}
	c := combo{values: values}
	if s.TimePos > 0 {
		c.pre = strings.Join(values[:s.TimePos], KeySep) + KeySep
	}
	if s.TimePos < len(values) {
		c.post = KeySep + strings.Join(values[s.TimePos:], KeySep)
	}
	return c
}

// Selection resolves b's Where against s: per dimension, the values wanted
// in the dimension's order. Errors name the dimension and the value.
func (s Spec) Selection(b Box) ([][]string, error) {
	for name := range b.Where {
		if _, ok := s.Dim(name); !ok {
			if len(s.Dims) == 0 {
				return nil, errorf(ErrInvalidKey, "where %s=…: this pipeline has no dimension besides time", name)
			}
			return nil, errorf(ErrInvalidKey, "where %s=…: no dimension %q: want one of %s", name, name, strings.Join(s.DimNames(), ", "))
		}
	}
	sel := make([][]string, len(s.Dims))
	for i, d := range s.Dims {
		want, named := b.Where[d.Name]
		if !d.Loaded() {
			return nil, errorf(ErrInvalidSpec, "dimension %s: its key set (column %s of %s) is not loaded", d.Name, d.Column, d.Product)
		}
		if !named {
			sel[i] = d.Values()
			continue
		}
		if len(want) == 0 {
			return nil, errorf(ErrInvalidKey, "where %s=: want at least one value (%s)", d.Name, listSome(d.Values(), 8))
		}
		// Keep the dimension's order (cells plan in it) and drop repeats.
		pos := make([]int, 0, len(want))
		seen := map[string]bool{}
		for _, v := range want {
			if seen[v] {
				continue
			}
			seen[v] = true
			j, ok := d.set.index[v]
			if !ok {
				return nil, errorf(ErrUnknownValue, "where %s=%s: %q is not a value of dimension %s: want %s", d.Name, strings.Join(want, ","), v, d.Name, listSome(d.Values(), 8))
			}
			pos = append(pos, j)
		}
		sort.Ints(pos)
		vs := make([]string, len(pos))
		for k, j := range pos {
			vs[k] = d.set.values[j]
		}
		sel[i] = vs
	}
	return sel, nil
}

// IterBox returns a lazy iterator over the cells of b, time outermost and
// in time order, the last dimension varying fastest. Keys and values are
// checked now.
func (s Spec) IterBox(b Box) (func(yield func(Partition) bool), error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	sel, err := s.Selection(b)
	if err != nil {
		return nil, err
	}
	combos := s.combos(sel)
	times := func(yield func(Partition) bool) { yield(Partition{}) }
	if s.hasTime() {
		if times, err = s.TimeOnly().Iter(b.From, b.To); err != nil {
			return nil, err
		}
	}
	return func(yield func(Partition) bool) {
		for t := range times {
			for _, c := range combos {
				if !yield(c.cell(s, t)) {
					return
				}
			}
		}
	}, nil
}

// IterBoxFrom is IterBox from the cell at offset (0: the first): the time
// keys before it are stepped over and no cell before it is built, so a
// page deep into millions of cells costs what the first page costs.
func (s Spec) IterBoxFrom(b Box, offset int) (func(yield func(Partition) bool), error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	sel, err := s.Selection(b)
	if err != nil {
		return nil, err
	}
	combos := s.combos(sel)
	times := func(yield func(Partition) bool) { yield(Partition{}) }
	if s.hasTime() {
		if times, err = s.TimeOnly().Iter(b.From, b.To); err != nil {
			return nil, err
		}
	}
	return func(yield func(Partition) bool) {
		if len(combos) == 0 {
			return
		}
		skip := max(offset, 0)
		for t := range times {
			if skip >= len(combos) {
				skip -= len(combos)
				continue
			}
			for _, c := range combos[skip:] {
				if !yield(c.cell(s, t)) {
					return
				}
			}
			skip = 0
		}
	}, nil
}

// BoxIndex returns where a key stands in IterBox(b)'s order, and false for
// a key that is not a cell of b: a page of some of b's cells (those in one
// state) sorts them without walking the whole box.
func (s Spec) BoxIndex(b Box) (func(key string) (int, bool), error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	sel, err := s.Selection(b)
	if err != nil {
		return nil, err
	}
	pos := make([]map[string]int, len(sel))
	combos := 1
	for i, vs := range sel {
		pos[i] = make(map[string]int, len(vs))
		for j, v := range vs {
			pos[i][v] = j
		}
		combos *= len(vs)
	}
	times := map[string]int{"": 0}
	if s.hasTime() {
		it, err := s.TimeOnly().Iter(b.From, b.To)
		if err != nil {
			return nil, err
		}
		times = map[string]int{}
		for t := range it {
			times[t.Key] = len(times)
		}
	}
	return func(key string) (int, bool) {
		tk, values := key, []string(nil)
		if len(s.Dims) > 0 {
			var err error
			if tk, values, err = s.split(key); err != nil || len(values) != len(sel) {
				return 0, false
			}
		}
		at, ok := times[tk]
		if !ok {
			return 0, false
		}
		c := 0
		for i, v := range values {
			j, ok := pos[i][v]
			if !ok {
				return 0, false
			}
			c = c*len(sel[i]) + j
		}
		return at*combos + c, true
	}, nil
}

// CountBox counts the cells of b without building them.
func (s Spec) CountBox(b Box) (int, error) {
	if err := s.Validate(); err != nil {
		return 0, err
	}
	sel, err := s.Selection(b)
	if err != nil {
		return 0, err
	}
	n := 1
	if s.hasTime() {
		if n, err = s.TimeOnly().Count(b.From, b.To); err != nil {
			return 0, err
		}
	}
	for _, vs := range sel {
		n *= len(vs)
	}
	return n, nil
}
