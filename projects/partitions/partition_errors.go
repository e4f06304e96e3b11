package partitions

import (
	"fmt"
	"strconv"
	"strings"
)

// Sentinel kinds of error, for errors.Is. Every error this package returns is
// an *Error whose message already says what was wrong, where, and what was
// expected; the kind lets callers (the HTTP layer, the CLI) pick a status or
// exit code without matching text.
var (
	// ErrInvalidSpec: an interval, zone, week start or start that cannot be used.
	ErrInvalidSpec = kind("invalid partition spec")
	// ErrInvalidKey: a key in the wrong format, or naming a date that does
	// not exist in any calendar (2023-02-29, 2024-13-01, 2021-W53).
	ErrInvalidKey = kind("invalid partition key")
	// ErrSkipped: a well-formed key for a partition that the zone's clocks
	// jumped over (2024-03-10T02 in America/New_York).
	ErrSkipped = kind("partition skipped by a clock change")
	// ErrAmbiguous: an hour key without an offset for an hour that occurs
	// twice because clocks fell back; the message lists the valid keys.
	ErrAmbiguous = kind("ambiguous partition key")
	// ErrUnknownValue: a well-formed key whose value is not one of its
	// dimension's values (or not in the loaded key set of a dynamic one).
	ErrUnknownValue = kind("unknown dimension value")
	// ErrBeforeStart: a partition before the spec's first partition.
	ErrBeforeStart = kind("partition before the first partition")
	// ErrInvalidRange: a range whose first key is after its last.
	ErrInvalidRange = kind("invalid partition range")
	// ErrRangeTooLarge: a range with more than MaxRangePartitions partitions.
	ErrRangeTooLarge = kind("partition range too large")
)

type kind string

func (k kind) Error() string { return "partitions: " + string(k) }

// Error is the error type of this package: a complete, user-facing message
// and one of the sentinel kinds above.
type Error struct {
	Kind error
	msg  string
}

func (e *Error) Error() string { return e.msg }

// Unwrap makes errors.Is(err, ErrSkipped) and friends work.
func (e *Error) Unwrap() error { return e.Kind }

func errorf(k error, format string, args ...any) *Error {
	return &Error{Kind: k, msg: fmt.Sprintf(format, args...)}
}

// formatError explains why key does not have the shape interval i wants, and
// guesses which interval it was written for.
func formatError(key string, i Interval) *Error {
	if i == None {
		return errorf(ErrInvalidKey, "partition %q does not exist: this spec is not partitioned (interval none) and its only partition is %q", key, AllKey)
	}
	info := intervalInfos[i]
	msg := fmt.Sprintf("partition %q is not %s key: want %s (e.g. %s)", key, article(i), info.layout, info.example)
	for _, other := range intervals {
		if other != i && looksLike(key, other) {
			msg += fmt.Sprintf("; it looks like %s key, but this spec is partitioned by %s", article(other), i)
			break
		}
	}
	return &Error{Kind: ErrInvalidKey, msg: msg}
}

// valueError explains why a well-shaped key names no real period.
func valueError(key string, i Interval, why string) *Error {
	return errorf(ErrInvalidKey, "partition %q is not a valid %s: %s", key, i, why)
}

// article returns "a day" or "an hour" for messages.
func article(i Interval) string {
	if i == Hour {
		return "an hour"
	}
	if i == None {
		return "an unpartitioned (" + string(i) + ")"
	}
	return "a " + string(i)
}

// quoteKeys renders keys as `"a" or "b"`, or `one of "a", "b", "c"`.
func quoteKeys(keys []string) string {
	q := make([]string, len(keys))
	for i, k := range keys {
		q[i] = strconv.Quote(k)
	}
	if len(q) == 2 {
		return q[0] + " or " + q[1]
	}
	return "one of " + strings.Join(q, ", ")
}

// groupThousands renders 1753200 as "1,753,200" for range-size errors.
func groupThousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 && s[i-1] != '-' {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
