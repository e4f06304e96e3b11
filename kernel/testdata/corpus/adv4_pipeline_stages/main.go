// A data pipeline: csv parsed into records with errors joined and wrapped,
// transform stages behind an interface the block declares (values stored
// in a []Transform), a labeled continue, and per-region aggregates.
package main

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

type Record struct {
	Region string
	Amount float64
	Units  int
}

type Transform interface {
	Apply(Record) (Record, bool)
	Name() string
}

type filterMin struct{ min float64 }

func (f filterMin) Apply(r Record) (Record, bool) { return r, r.Amount >= f.min }
func (f filterMin) Name() string                  { return fmt.Sprintf("min(%.0f)", f.min) }

type upperRegion struct{}

func (upperRegion) Apply(r Record) (Record, bool) {
	r.Region = strings.ToUpper(r.Region)
	return r, true
}
func (upperRegion) Name() string { return "upper" }

type Pipeline struct {
	stages []Transform
	stats  map[string]int
}

func (p *Pipeline) Use(t Transform) *Pipeline {
	p.stages = append(p.stages, t)
	return p
}

func (p *Pipeline) Run(in []Record) []Record {
	if p.stats == nil {
		p.stats = map[string]int{}
	}
	var out []Record
next:
	for _, r := range in {
		for _, st := range p.stages {
			var ok bool
			if r, ok = st.Apply(r); !ok {
				p.stats[st.Name()]++
				continue next
			}
		}
		out = append(out, r)
	}
	return out
}

var ErrBadRow = errors.New("bad row")

func parse(rd io.Reader) ([]Record, []error) {
	cr := csv.NewReader(rd)
	cr.FieldsPerRecord = 3
	var recs []Record
	var errs []error
	line := 0
	for {
		row, err := cr.Read()
		if err == io.EOF {
			break
		}
		line++
		if err != nil {
			errs = append(errs, fmt.Errorf("line %d: %w", line, err))
			continue
		}
		amt, err1 := strconv.ParseFloat(row[1], 64)
		units, err2 := strconv.Atoi(row[2])
		if err := errors.Join(err1, err2); err != nil {
			errs = append(errs, fmt.Errorf("line %d: %w: %v", line, ErrBadRow, err))
			continue
		}
		recs = append(recs, Record{row[0], amt, units})
	}
	return recs, errs
}

type agg struct {
	sum   float64
	units int
	n     int
}

func main() {
	data := "west,10.5,2\neast,3,1\nwest,x,1\nnorth,100,10\neast,7.25,3\nsouth,1\n"
	recs, errs := parse(strings.NewReader(data))
	for _, e := range errs {
		fmt.Println("error:", e, errors.Is(e, ErrBadRow))
	}
	p := (&Pipeline{}).Use(filterMin{5}).Use(upperRegion{})
	out := p.Run(recs)
	byRegion := map[string]*agg{}
	for _, r := range out {
		a := byRegion[r.Region]
		if a == nil {
			a = &agg{}
			byRegion[r.Region] = a
		}
		a.sum += r.Amount
		a.units += r.Units
		a.n++
	}
	regions := make([]string, 0, len(byRegion))
	for k := range byRegion {
		regions = append(regions, k)
	}
	sort.Strings(regions)
	for _, k := range regions {
		a := byRegion[k]
		fmt.Printf("%-6s n=%d sum=%8.2f units=%3d avg=%.3f\n", k, a.n, a.sum, a.units, a.sum/float64(a.n))
	}
	fmt.Println(p.stats, len(p.stages))
	names := []string{}
	for _, st := range p.stages {
		names = append(names, st.Name())
	}
	fmt.Println(strings.Join(names, " -> "))
}
