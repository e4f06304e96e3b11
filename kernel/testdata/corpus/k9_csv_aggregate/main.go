package main

import (
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
)

const data = `region,product,units,price
north,widget,10,2.50
south,widget,4,2.50
north,gadget,3,10.00
east,widget,7,2.40
south,gizmo,1,99.99
north,widget,5,2.50
"west, far",gadget,2,11.00
`

type agg struct {
	units   int
	revenue float64
}

func main() {
	r := csv.NewReader(strings.NewReader(data))
	header, err := r.Read()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("columns:", header)
	byRegion := map[string]*agg{}
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Println("read:", err)
			return
		}
		units, _ := strconv.Atoi(rec[2])
		price, _ := strconv.ParseFloat(rec[3], 64)
		a := byRegion[rec[0]]
		if a == nil {
			a = &agg{}
			byRegion[rec[0]] = a
		}
		a.units += units
		a.revenue += float64(units) * price
	}
	regions := make([]string, 0, len(byRegion))
	for k := range byRegion {
		regions = append(regions, k)
	}
	sort.Strings(regions)
	tw := tabwriter.NewWriter(os.Stdout, 0, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "region\tunits\trevenue\t")
	for _, k := range regions {
		fmt.Fprintf(tw, "%s\t%d\t%.2f\t\n", k, byRegion[k].units, byRegion[k].revenue)
	}
	tw.Flush()

	w := csv.NewWriter(os.Stdout)
	_ = w.Write([]string{"name", "note"})
	_ = w.Write([]string{"a,b", `say "hi"`})
	w.Flush()
	fmt.Println(w.Error())

	bad := csv.NewReader(strings.NewReader("a,b\n1,2,3\n"))
	_, err = bad.ReadAll()
	fmt.Println(err)
}
