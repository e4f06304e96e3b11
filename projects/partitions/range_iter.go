package partitions

// Ranges are written as two keys, both inclusive: Range("2024-01-01",
// "2024-12-31") is the 366 days of 2024. A backfill plans over Count and walks
// Iter, which computes one partition at a time; Range materializes and is
// capped so that a typo in a year cannot allocate millions of partitions.

// MaxRangePartitions caps Range. A million hours is 114 years; larger ranges
// must be walked with Iter or split.
const MaxRangePartitions = 1_000_000

// Range returns the partitions from key from to key to, both inclusive, in
// time order.
//
// With value dimensions, from and to are time keys and the range is every
// cell of those times (IterBox with no Where).
func (s Spec) Range(from, to string) ([]Partition, error) {
	if len(s.Dims) > 0 {
		n, err := s.CountBox(Box{From: from, To: to})
		if err != nil {
			return nil, err
		}
		if n > MaxRangePartitions {
			return nil, errorf(ErrRangeTooLarge, "range %s..%s has %s cells, more than the limit of %s: walk it with IterBox or split it",
				from, to, groupThousands(int64(n)), groupThousands(MaxRangePartitions))
		}
		it, err := s.IterBox(Box{From: from, To: to})
		if err != nil {
			return nil, err
		}
		out := make([]Partition, 0, n)
		for p := range it {
			out = append(out, p)
		}
		return out, nil
	}
	a, b, err := s.bounds(from, to)
	if err != nil {
		return nil, err
	}
	n := s.count(a, b)
	if n > MaxRangePartitions {
		return nil, errorf(ErrRangeTooLarge, "range %s..%s has %s %s partitions, more than the limit of %s: walk it with Iter or split it",
			from, to, groupThousands(n), s.Interval, groupThousands(MaxRangePartitions))
	}
	out := make([]Partition, 0, n)
	for p := range s.walk(a, b) {
		out = append(out, p)
	}
	return out, nil
}

// Count returns how many partitions Range(from, to) would return, without
// building them (and without Range's cap). It is arithmetic on period numbers
// for date-based intervals and on the zone's offset changes for hours, so it
// stays fast over centuries.
func (s Spec) Count(from, to string) (int, error) {
	if len(s.Dims) > 0 {
		return s.CountBox(Box{From: from, To: to})
	}
	a, b, err := s.bounds(from, to)
	if err != nil {
		return 0, err
	}
	return int(s.count(a, b)), nil
}

// Iter returns a lazy iterator over the partitions from key from to key to,
// both inclusive, in time order. Keys are checked now; partitions are
// computed one at a time as the loop asks for them, so breaking early costs
// nothing and a backfill over 100,000 hours never holds them all.
//
//	seq, err := spec.Iter("2024-01-01T00", "2024-12-31T23")
//	for p := range seq { ... }
func (s Spec) Iter(from, to string) (func(yield func(Partition) bool), error) {
	if len(s.Dims) > 0 {
		return s.IterBox(Box{From: from, To: to})
	}
	a, b, err := s.bounds(from, to)
	if err != nil {
		return nil, err
	}
	return s.walk(a, b), nil
}

// bounds parses the ends of a range and checks their order.
func (s Spec) bounds(from, to string) (Partition, Partition, error) {
	if err := s.Validate(); err != nil {
		return Partition{}, Partition{}, err
	}
	a, err := s.Parse(from)
	if err != nil {
		return Partition{}, Partition{}, labelled("from", err)
	}
	b, err := s.Parse(to)
	if err != nil {
		return Partition{}, Partition{}, labelled("to", err)
	}
	if b.Start.Before(a.Start) {
		return Partition{}, Partition{}, errorf(ErrInvalidRange, "range %s..%s is reversed: from must not be after to (both ends are inclusive)", from, to)
	}
	return a, b, nil
}

// labelled prefixes err's message with which end of a range it is about.
func labelled(end string, err error) error {
	if e, ok := err.(*Error); ok {
		return &Error{Kind: e.Kind, msg: end + ": " + e.msg}
	}
	return err
}

// count counts the partitions from a to b inclusive.
func (s Spec) count(a, b Partition) int64 {
	switch s.Interval {
	case None:
		return 1
	case Hour:
		return s.countHours(a.Start.Unix(), b.End.Unix())
	}
	return s.countDates(a, b)
}

// walk yields the partitions from a to b inclusive, following Next.
func (s Spec) walk(a, b Partition) func(yield func(Partition) bool) {
	return func(yield func(Partition) bool) {
		c := newZoneCache(s.loc()) // per run of the loop: the iterator may be reused
		for p := a; ; p = s.atWith(c, p.End) {
			if !yield(p) || !p.Start.Before(b.Start) {
				return
			}
		}
	}
}
