package main

import (
	"encoding/csv"
	"fmt"
	"os"
	"strings"
)

func main() {
	in := "name,qty\napple,3\n\"banana, ripe\",5\n"
	r := csv.NewReader(strings.NewReader(in))
	recs, err := r.ReadAll()
	fmt.Println(len(recs), err)
	for _, rec := range recs[1:] {
		fmt.Printf("%s=%s\n", rec[0], rec[1])
	}
	w := csv.NewWriter(os.Stdout)
	w.Write([]string{"a", "b,c", `q"uote`})
	w.Flush()
}
