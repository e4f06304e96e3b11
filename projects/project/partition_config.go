package project

import (
	"fmt"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// PartitionConfig says how a pipeline or a block slices time. The calendar
// arithmetic lives in projects/partitions; this package only checks that the
// settings name things that exist, so a typo fails at load, not mid-backfill.
type PartitionConfig struct {
	Interval  string // hour, day, week, month, quarter, year or none
	Timezone  string // IANA zone name, such as "America/New_York"
	Start     string // first partition, YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS] in Timezone; "" when unset
	WeekStart string // lowercase weekday a week starts on, such as "monday"
	// Dims are the value dimensions (dimension_config.go) in declared
	// order; nil for today's time-only partitions.
	Dims []DimConfig
	// TimeName names the time dimension when it is declared in the
	// dimensions list; TimePos is its place among the key's parts.
	TimeName string
	TimePos  int
}

// Intervals lists the accepted partition intervals, finest first.
var Intervals = []string{"hour", "day", "week", "month", "quarter", "year", "none"}

// Weekdays lists the accepted week_start values.
var Weekdays = []string{"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}

// intervalAliases maps spellings people bring from other tools to ours.
var intervalAliases = map[string]string{
	"hourly": "hour", "daily": "day", "weekly": "week", "monthly": "month",
	"quarterly": "quarter", "yearly": "year", "annual": "year", "annually": "year",
}

// startLayouts are the accepted spellings of a first partition.
var startLayouts = []string{"2006-01-02", "2006-01-02T15:04", "2006-01-02T15:04:05", "2006-01-02 15:04", "2006-01-02 15:04:05"}

var partitionFields = []string{"interval", "timezone", "start", "week_start", "dimensions"}

// decodePartitions reads a partitions mapping and fills what it leaves out
// from inherit. At the pipeline level (requireInterval) the interval must be
// written, since silently treating a forgotten interval as "none" would make
// a daily pipeline run once.
func (d *decoder) decodePartitions(e entry, path string, inherit PartitionConfig, requireInterval bool) PartitionConfig {
	out := inherit
	f, ok := d.fields(e.val, path, "a partitions mapping", partitionFields)
	if !ok {
		return out
	}
	if v, ok := f["dimensions"]; ok {
		if !requireInterval {
			d.addf(v.key, join(path, "dimensions"), "dimensions are set for the whole pipeline (its partitions.dimensions); a block inherits them and may change only its interval")
		} else if !d.decodeDimensions(v, path, f, &out) {
			return out
		} else if out.Interval != "" || len(out.Dims) > 0 {
			requireInterval = false
		}
	}
	if _, ok := f["interval"]; !ok && requireInterval {
		d.addf(e.val, join(path, "interval"), "missing interval: want one of %s (or a dimensions list)", quoteList(Intervals))
	}
	d.decodeTimeFields(f, path, &out)
	return out
}

// decodeTimeFields reads the time dimension's fields of f into out.
func (d *decoder) decodeTimeFields(f map[string]entry, path string, out *PartitionConfig) {
	if v, ok := f["interval"]; ok {
		if s, ok := d.str(v, join(path, "interval")); ok && d.checkInterval(v.val, join(path, "interval"), s) {
			out.Interval = s
		}
	}
	if v, ok := f["timezone"]; ok {
		if s, ok := d.str(v, join(path, "timezone")); ok && d.checkTimezone(v.val, join(path, "timezone"), s) {
			out.Timezone = s
		}
	}
	if v, ok := f["week_start"]; ok {
		if s, ok := d.str(v, join(path, "week_start")); ok {
			if day, ok := d.checkWeekday(v.val, join(path, "week_start"), s); ok {
				out.WeekStart = day
			}
		}
	}
	if v, ok := f["start"]; ok {
		if s, ok := d.str(v, join(path, "start")); ok && d.checkStart(v.val, join(path, "start"), s) {
			out.Start = s
		}
	}
}

func (d *decoder) checkInterval(n *yaml.Node, field, s string) bool {
	for _, iv := range Intervals {
		if s == iv {
			return true
		}
	}
	hint := didYouMean(s, Intervals)
	if alias, ok := intervalAliases[strings.ToLower(s)]; ok {
		hint = fmt.Sprintf(" (did you mean %q?)", alias)
	} else if lower := strings.ToLower(s); lower != s && hint == "" {
		hint = didYouMean(lower, Intervals)
	}
	d.addf(n, field, "unknown interval %q%s: want one of %s", s, hint, quoteList(Intervals))
	return false
}

// checkTimezone accepts IANA zone names. "Local" is refused: it would make
// partition keys depend on the machine that happens to run the backfill.
func (d *decoder) checkTimezone(n *yaml.Node, field, s string) bool {
	if err := ValidateTimezone(s); err != nil {
		d.addf(n, field, "%s", err)
		return false
	}
	return true
}

// ValidateTimezone reports whether s is an IANA time zone name Strata
// accepts: not empty and not "Local".
func ValidateTimezone(s string) error {
	switch s {
	case "":
		return fmt.Errorf("empty time zone: want an IANA name such as \"UTC\" or \"America/New_York\"")
	case "Local":
		return fmt.Errorf("time zone \"Local\" depends on the machine: want an IANA name such as \"UTC\" or \"America/New_York\"")
	}
	if _, err := time.LoadLocation(s); err != nil {
		msg := fmt.Sprintf("unknown time zone %q: want an IANA name such as \"UTC\" or \"America/New_York\"", s)
		if fixed := strings.ReplaceAll(s, " ", "_"); fixed != s {
			if _, err := time.LoadLocation(fixed); err == nil {
				msg = fmt.Sprintf("unknown time zone %q (did you mean %q?)", s, fixed)
			}
		}
		return fmt.Errorf("%s", msg)
	}
	return nil
}

// checkWeekday accepts weekday names in any case and returns them lowercase.
func (d *decoder) checkWeekday(n *yaml.Node, field, s string) (string, bool) {
	lower := strings.ToLower(s)
	for _, day := range Weekdays {
		if lower == day {
			return day, true
		}
	}
	hint := didYouMean(lower, Weekdays)
	if hint == "" && len(lower) >= 2 {
		for _, day := range Weekdays {
			if strings.HasPrefix(day, lower) {
				hint = fmt.Sprintf(" (did you mean %q?)", day)
				break
			}
		}
	}
	d.addf(n, field, "unknown week_start %q%s: want a weekday name, %s", s, hint, quoteList(Weekdays))
	return "", false
}

// checkStart accepts a calendar date, or a date and time for hourly
// pipelines, written without an offset: the zone comes from timezone.
func (d *decoder) checkStart(n *yaml.Node, field, s string) bool {
	for _, layout := range startLayouts {
		if _, err := time.Parse(layout, s); err == nil {
			return true
		}
	}
	d.addf(n, field, "bad start %q: want a date such as \"2020-01-01\" (or \"2020-01-01T06:00\" for hourly), read in the partition time zone", s)
	return false
}
