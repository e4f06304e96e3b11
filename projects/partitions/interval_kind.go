package partitions

import (
	"fmt"
	"strings"
)

// Interval is the length of a pipeline's partitions. The zero value is not a
// valid interval; build specs with NewSpec or check Spec.Validate.
type Interval string

// The intervals a pipeline file may name, finest first.
const (
	Hour    Interval = "hour"
	Day     Interval = "day"
	Week    Interval = "week"
	Month   Interval = "month"
	Quarter Interval = "quarter"
	Year    Interval = "year"
	// None means the data is not partitioned: one partition, keyed AllKey,
	// that covers all time.
	None Interval = "none"
)

// AllKey is the key of the single partition of an unpartitioned (None) spec.
const AllKey = "all"

// intervalInfo is the small registry of what each interval looks like as a
// key: the layout shown to users, an example, and a shape for strict
// matching in which '9' stands for one ASCII digit.
type intervalInfo struct {
	layout  string
	example string
	shapes  []string
}

// intervals lists every interval in the order errors mention them.
var intervals = []Interval{Hour, Day, Week, Month, Quarter, Year, None}

var intervalInfos = map[Interval]intervalInfo{
	Hour: {
		layout:  "YYYY-MM-DDTHH",
		example: "2024-03-10T14; an hour repeated when clocks fall back adds its UTC offset: 2024-11-03T01-05:00",
		shapes: []string{
			"9999-99-99T99", "9999-99-99T99+99:99", "9999-99-99T99-99:99",
			"9999-99-99T99+99:99:99", "9999-99-99T99-99:99:99",
		},
	},
	Day:     {layout: "YYYY-MM-DD", example: "2024-03-10", shapes: []string{"9999-99-99"}},
	Week:    {layout: "YYYY-Www", example: "2024-W10", shapes: []string{"9999-W99"}},
	Month:   {layout: "YYYY-MM", example: "2024-03", shapes: []string{"9999-99"}},
	Quarter: {layout: "YYYY-Qn", example: "2024-Q1", shapes: []string{"9999-Q9"}},
	Year:    {layout: "YYYY", example: "2024", shapes: []string{"9999"}},
	None:    {layout: AllKey, example: AllKey, shapes: []string{AllKey}},
}

// Intervals returns every valid interval, finest first.
func Intervals() []Interval { return append([]Interval(nil), intervals...) }

// Valid reports whether i is one of the named intervals.
func (i Interval) Valid() bool {
	_, ok := intervalInfos[i]
	return ok
}

// ParseInterval reads an interval as written in a pipeline file or a CLI
// flag. Case and surrounding spaces are ignored; anything else is an error
// that lists the valid values.
func ParseInterval(s string) (Interval, error) {
	i := Interval(strings.ToLower(strings.TrimSpace(s)))
	if i.Valid() {
		return i, nil
	}
	return "", &Error{
		Kind: ErrInvalidSpec,
		msg:  fmt.Sprintf("interval %q is not valid: want one of %s", s, intervalList()),
	}
}

func intervalList() string {
	names := make([]string, len(intervals))
	for i, iv := range intervals {
		names[i] = string(iv)
	}
	return strings.Join(names, ", ")
}

// matchShape reports whether key has exactly the given shape: '9' matches
// one ASCII digit and every other byte matches itself.
func matchShape(key, shape string) bool {
	if len(key) != len(shape) {
		return false
	}
	for i := 0; i < len(key); i++ {
		if shape[i] == '9' {
			if key[i] < '0' || key[i] > '9' {
				return false
			}
		} else if key[i] != shape[i] {
			return false
		}
	}
	return true
}

// looksLike reports whether key has one of the shapes of interval i.
func looksLike(key string, i Interval) bool {
	for _, shape := range intervalInfos[i].shapes {
		if matchShape(key, shape) {
			return true
		}
	}
	return false
}

// atoi reads a run of ASCII digits already checked by matchShape.
func atoi(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}
