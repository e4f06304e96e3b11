package partitions

import "time"

// date is a calendar date with no zone attached: the wall-clock label of the
// first day of a partition. Partition math is done on dates and on "wall
// seconds" (seconds since 1970-01-01 00:00 of the local calendar, as if the
// local clock were UTC) and only turned into instants by firstReach, which is
// where time zones and DST enter.
type date struct {
	y int
	m time.Month
	d int
}

const (
	secondsPerHour = 3600
	secondsPerDay  = 86400
)

// days returns the number of days from 1970-01-01 to d in the proleptic
// Gregorian calendar (negative before 1970). It is Howard Hinnant's
// days_from_civil, which is exact for every year Go's time package handles.
func (d date) days() int64 {
	y := int64(d.y)
	m := int64(d.m)
	if m <= 2 {
		y--
	}
	era := floorDiv(y, 400)
	yoe := y - era*400                   // [0, 399]
	mp := (m + 9) % 12                   // March is 0, February is 11
	doy := (153*mp+2)/5 + int64(d.d) - 1 // [0, 365]
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// dateFromDays is the inverse of date.days (Hinnant's civil_from_days).
func dateFromDays(z int64) date {
	z += 719468
	era := floorDiv(z, 146097)
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y := yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d := doy - (153*mp+2)/5 + 1
	m := mp + 3
	if m > 12 {
		m -= 12
	}
	if m <= 2 {
		y++
	}
	return date{y: int(y), m: time.Month(m), d: int(d)}
}

// dateOfWall returns the calendar date of a wall-second value.
func dateOfWall(w int64) date { return dateFromDays(floorDiv(w, secondsPerDay)) }

// wall returns the wall seconds of d's midnight.
func (d date) wall() int64 { return d.days() * secondsPerDay }

func (d date) addDays(n int64) date { return dateFromDays(d.days() + n) }

// addMonths moves a first-of-month date by n months.
func (d date) addMonths(n int) date {
	i := d.monthIndex() + int64(n)
	return date{y: int(floorDiv(i, 12)), m: time.Month(floorMod(i, 12) + 1), d: d.d}
}

// monthIndex numbers months consecutively: year*12 + month-1.
func (d date) monthIndex() int64 { return int64(d.y)*12 + int64(d.m) - 1 }

func (d date) weekday() time.Weekday {
	// 1970-01-01 was a Thursday.
	return time.Weekday(floorMod(d.days()+4, 7))
}

func isLeap(y int) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0) }

// daysIn returns the number of days in month m of year y.
func daysIn(y int, m time.Month) int {
	switch m {
	case time.February:
		if isLeap(y) {
			return 29
		}
		return 28
	case time.April, time.June, time.September, time.November:
		return 30
	}
	return 31
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func floorMod(a, b int64) int64 { return a - floorDiv(a, b)*b }

func ceilDiv(a, b int64) int64 { return -floorDiv(-a, b) }

// appendPadded appends v in decimal, zero-padded to at least width digits.
// Keys are built with it instead of fmt because Iter formats one key per
// partition and a backfill may walk hundreds of thousands of them.
func appendPadded(b []byte, v, width int) []byte {
	if v < 0 {
		b = append(b, '-')
		v = -v
	}
	var buf [20]byte
	i := len(buf)
	for v > 0 || len(buf)-i < width {
		i--
		buf[i] = byte('0' + v%10)
		v /= 10
	}
	return append(b, buf[i:]...)
}

// appendDate appends YYYY-MM-DD.
func appendDate(b []byte, d date) []byte {
	b = appendPadded(b, d.y, 4)
	b = append(b, '-')
	b = appendPadded(b, int(d.m), 2)
	b = append(b, '-')
	return appendPadded(b, d.d, 2)
}

// appendOffset appends a UTC offset as ±hh:mm, or ±hh:mm:ss when it has
// seconds (local mean time before standard zones, e.g. -04:56:02).
func appendOffset(b []byte, off int) []byte {
	sign := byte('+')
	if off < 0 {
		sign = '-'
		off = -off
	}
	b = append(b, sign)
	b = appendPadded(b, off/3600, 2)
	b = append(b, ':')
	b = appendPadded(b, off/60%60, 2)
	if s := off % 60; s != 0 {
		b = append(b, ':')
		b = appendPadded(b, s, 2)
	}
	return b
}

// formatWall renders wall seconds as "YYYY-MM-DD HH:MM" for error messages.
func formatWall(w int64) string {
	b := appendDate(nil, dateOfWall(w))
	s := int(floorMod(w, secondsPerDay))
	b = append(b, ' ')
	b = appendPadded(b, s/3600, 2)
	b = append(b, ':')
	b = appendPadded(b, s/60%60, 2)
	return string(b)
}
