package partitions

import (
	"fmt"
	"strings"
	"unicode"
)

// Dimensions beyond the calendar. A Spec has at most one time dimension (its
// Interval, Zone, WeekStart and Start, unchanged) and any number of value
// dimensions: static ones, whose values are written in the pipeline file,
// and dynamic ones, whose values are a product's column at some version. A
// key names one cell: the parts of every dimension joined by KeySep in the
// declared order ("2024-03-10|eu|c42"). A spec without value dimensions
// keeps today's keys byte for byte.
//
// This package does not read products: a dynamic dimension's values are
// handed to it (WithValues) by whoever read the key set, which also records
// which version of it was used.

// KeySep joins the parts of a multi-dimensional key. Values may not contain
// it, so a key splits back into its parts unambiguously.
const KeySep = "|"

// DimKind says where a value dimension's values come from.
type DimKind string

// Value dimension kinds.
const (
	Static  DimKind = "static"
	Dynamic DimKind = "dynamic"
)

// MaxValueLen bounds one dimension value: a key is a warehouse column value,
// a URL segment and a file name part.
const MaxValueLen = 200

// Dim is one value dimension. Build it with NewStaticDim or NewDynamicDim;
// it is immutable and shares its value index between copies.
type Dim struct {
	Name string
	Kind DimKind
	// Product and Column are where a dynamic dimension's key set is read.
	Product, Column string
	set             *valueSet // nil: a dynamic dimension whose key set is not loaded
}

type valueSet struct {
	values []string
	index  map[string]int
}

// NewStaticDim builds a static dimension; values keep their declared order,
// which is the order cells are planned in.
func NewStaticDim(name string, values []string) (Dim, error) {
	if err := CheckDimName(name); err != nil {
		return Dim{}, err
	}
	if len(values) == 0 {
		return Dim{}, errorf(ErrInvalidSpec, "dimension %q has no values: want a list such as [us, eu, apac]", name)
	}
	set, err := newValueSet(name, values)
	if err != nil {
		return Dim{}, err
	}
	return Dim{Name: name, Kind: Static, set: set}, nil
}

// NewDynamicDim builds a dynamic dimension whose key set is column of
// product; its values are unknown until WithValues.
func NewDynamicDim(name, product, column string) (Dim, error) {
	if err := CheckDimName(name); err != nil {
		return Dim{}, err
	}
	if product == "" || column == "" {
		return Dim{}, errorf(ErrInvalidSpec, "dynamic dimension %q needs a product and a column (from: {product: P, column: C})", name)
	}
	return Dim{Name: name, Kind: Dynamic, Product: product, Column: column}, nil
}

// WithValues returns d with its key set: a dynamic dimension's values as
// read from its product. Duplicates are dropped (a key set is a set);
// order is kept.
func (d Dim) WithValues(values []string) (Dim, error) {
	var uniq []string
	seen := make(map[string]bool, len(values))
	for _, v := range values {
		if !seen[v] {
			seen[v] = true
			uniq = append(uniq, v)
		}
	}
	set, err := newValueSet(d.Name, uniq)
	if err != nil {
		return Dim{}, err
	}
	d.set = set
	return d, nil
}

// Values returns the dimension's values in order; nil for a dynamic
// dimension whose key set is not loaded. Do not modify the slice.
func (d Dim) Values() []string {
	if d.set == nil {
		return nil
	}
	return d.set.values
}

// Loaded reports whether the dimension's values are known.
func (d Dim) Loaded() bool { return d.set != nil }

// Has reports whether v is one of the dimension's values.
func (d Dim) Has(v string) bool {
	if d.set == nil {
		return false
	}
	_, ok := d.set.index[v]
	return ok
}

func newValueSet(name string, values []string) (*valueSet, error) {
	s := &valueSet{values: values, index: make(map[string]int, len(values))}
	for i, v := range values {
		if err := CheckValue(v); err != nil {
			return nil, errorf(ErrInvalidSpec, "dimension %q: %v", name, err)
		}
		if _, dup := s.index[v]; dup {
			return nil, errorf(ErrInvalidSpec, "dimension %q lists %q twice: want each value once", name, v)
		}
		s.index[v] = i
	}
	return s, nil
}

// CheckDimName accepts identifiers (letters, digits, underscores, not
// starting with a digit): names appear in --where, URLs and Go code.
func CheckDimName(name string) error {
	if name == "" {
		return errorf(ErrInvalidSpec, "a dimension needs a name: want an identifier such as region")
	}
	for i, r := range name {
		if r == '_' || unicode.IsLetter(r) && r < unicode.MaxASCII || unicode.IsDigit(r) && r < unicode.MaxASCII && i > 0 {
			continue
		}
		return errorf(ErrInvalidSpec, "dimension name %q is not an identifier: want letters, digits and underscores, not starting with a digit (e.g. region)", name)
	}
	return nil
}

// CheckValue accepts a dimension value: not empty, at most MaxValueLen
// bytes, no KeySep, no comma (--where lists values with commas), no leading
// '@' (--where's @new), no spaces at either end and no control characters.
func CheckValue(v string) error {
	switch {
	case v == "":
		return errorf(ErrInvalidKey, "empty value: want a non-empty string such as eu")
	case len(v) > MaxValueLen:
		return errorf(ErrInvalidKey, "value %.20q… is %d bytes long: want at most %d", v, len(v), MaxValueLen)
	case strings.Contains(v, KeySep):
		return errorf(ErrInvalidKey, "value %q contains %q, which separates the parts of a key", v, KeySep)
	case strings.Contains(v, ","):
		return errorf(ErrInvalidKey, "value %q contains a comma, which separates values in --where", v)
	case strings.HasPrefix(v, "@"):
		return errorf(ErrInvalidKey, "value %q starts with @, which --where keeps for selectors such as @new", v)
	case strings.TrimSpace(v) != v:
		return errorf(ErrInvalidKey, "value %q has spaces at an end", v)
	}
	for _, r := range v {
		if unicode.IsControl(r) {
			return errorf(ErrInvalidKey, "value %q contains a control character", v)
		}
	}
	return nil
}

// hasTime reports whether keys of s carry a time part.
func (s Spec) hasTime() bool { return s.Interval != None }

// Dimensional reports whether s has value dimensions, so its keys have
// several parts.
func (s Spec) Dimensional() bool { return len(s.Dims) > 0 }

// Partitioned reports whether s has more than the one "all" partition.
func (s Spec) Partitioned() bool { return s.Interval != None || len(s.Dims) > 0 }

// TimeOnly returns s without its value dimensions: the calendar.
func (s Spec) TimeOnly() Spec {
	s.Dims, s.TimePos = nil, 0
	return s
}

// Dim returns the value dimension named name.
func (s Spec) Dim(name string) (Dim, bool) {
	for _, d := range s.Dims {
		if d.Name == name {
			return d, true
		}
	}
	return Dim{}, false
}

// DimNames lists the value dimensions' names in declared order.
func (s Spec) DimNames() []string {
	out := make([]string, len(s.Dims))
	for i, d := range s.Dims {
		out[i] = d.Name
	}
	return out
}

// validateDims checks the value dimensions of s: distinct names, a time
// position inside the key.
func (s Spec) validateDims() error {
	seen := map[string]bool{}
	for _, d := range s.Dims {
		if err := CheckDimName(d.Name); err != nil {
			return err
		}
		if seen[d.Name] {
			return errorf(ErrInvalidSpec, "dimension %q is declared twice: want distinct names", d.Name)
		}
		seen[d.Name] = true
		if d.Kind != Static && d.Kind != Dynamic {
			return errorf(ErrInvalidSpec, "dimension %q has kind %q: want static or dynamic", d.Name, d.Kind)
		}
	}
	if s.TimePos < 0 || s.TimePos > len(s.Dims) || (!s.hasTime() && s.TimePos != 0) {
		return errorf(ErrInvalidSpec, "time position %d is outside the key's %d parts", s.TimePos, len(s.Dims)+1)
	}
	return nil
}

// KeyLayout describes the key of s for errors: "DAY|region|customer".
func (s Spec) KeyLayout() string {
	parts := make([]string, 0, len(s.Dims)+1)
	for i, d := range s.Dims {
		if s.hasTime() && i == s.TimePos {
			parts = append(parts, strings.ToUpper(string(s.Interval)))
		}
		parts = append(parts, d.Name)
	}
	if s.hasTime() && s.TimePos == len(s.Dims) {
		parts = append(parts, strings.ToUpper(string(s.Interval)))
	}
	return strings.Join(parts, KeySep)
}

// keyExample is an example key of s for errors: "2024-03-10|eu".
func (s Spec) keyExample() string {
	vals := make([]string, len(s.Dims))
	for i, d := range s.Dims {
		vals[i] = d.Name + "-value"
		if v := d.Values(); len(v) > 0 {
			vals[i] = v[0]
		}
	}
	return s.compose(intervalInfos[s.Interval].example, vals)
}

// compose joins a time key and values into s's key.
func (s Spec) compose(timeKey string, values []string) string {
	if len(s.Dims) == 0 {
		return timeKey
	}
	var b strings.Builder
	n := len(timeKey)
	for _, v := range values {
		n += len(v) + 1
	}
	b.Grow(n)
	for i, v := range values {
		if s.hasTime() && i == s.TimePos {
			b.WriteString(timeKey)
			b.WriteString(KeySep)
		}
		if i > 0 {
			b.WriteString(KeySep)
		}
		b.WriteString(v)
	}
	if s.hasTime() && s.TimePos == len(values) {
		if len(values) > 0 {
			b.WriteString(KeySep)
		}
		b.WriteString(timeKey)
	}
	return b.String()
}

// split cuts key into its time part and values, checking the part count
// and every value against its dimension.
func (s Spec) split(key string) (timeKey string, values []string, err error) {
	parts := strings.Split(key, KeySep)
	want := len(s.Dims)
	if s.hasTime() {
		want++
	}
	if len(parts) != want {
		return "", nil, errorf(ErrInvalidKey, "partition %q has %d part(s): want %d, %s (e.g. %s)", key, len(parts), want, s.KeyLayout(), s.keyExample())
	}
	if s.hasTime() {
		timeKey = parts[s.TimePos]
		parts = append(parts[:s.TimePos:s.TimePos], parts[s.TimePos+1:]...)
	}
	for i, d := range s.Dims {
		if err := s.checkDimValue(key, d, parts[i]); err != nil {
			return "", nil, err
		}
	}
	return timeKey, parts, nil
}

// checkDimValue checks one part of key against its dimension.
func (s Spec) checkDimValue(key string, d Dim, v string) error {
	if err := CheckValue(v); err != nil {
		return errorf(ErrInvalidKey, "partition %q: dimension %s: %v", key, d.Name, err)
	}
	if d.set == nil { // a dynamic key set not loaded: the shape is all we can check
		return nil
	}
	if !d.Has(v) {
		what := "values"
		if d.Kind == Dynamic {
			what = "key set (column " + d.Column + " of " + d.Product + ")"
		}
		return errorf(ErrUnknownValue, "partition %q: %q is not a value of dimension %s: its %s: %s", key, v, d.Name, what, listSome(d.Values(), 8))
	}
	return nil
}

// listSome renders up to n values and how many more.
func listSome(vs []string, n int) string {
	if len(vs) <= n {
		return strings.Join(vs, ", ")
	}
	return fmt.Sprintf("%s, … (%d in all)", strings.Join(vs[:n], ", "), len(vs))
}
