// fmt verbs a report uses: widths, precisions, flags, argument indexes,
// and the error forms for wrong verbs and missing arguments.
package main

import "fmt"

type row struct {
	Name  string
	Qty   int
	Price float64
}

func main() {
	rows := []row{{"widget", 3, 2.5}, {"gadget-long-name", 12, 10}, {"x", -1, 0.125}}
	for _, r := range rows {
		fmt.Printf("|%-10.10s|%5d|%8.2f|%+d|%x|\n", r.Name, r.Qty, r.Price, r.Qty, r.Qty)
	}
	fmt.Printf("%[2]d %[1]d %[2]d\n", 1, 2)
	fmt.Printf("%*d|%-*d|%.*f\n", 5, 42, 4, 7, 2, 3.14159)
	fmt.Printf("%08.3f|%-8.3f|% d|% d\n", 3.14159, 2.5, 5, -5)
	fmt.Printf("%e %E %g %G %.3g\n", 123456.789, 0.000123, 1e21, 1e-7, 2.0/3)
	fmt.Printf("%b %o %O %#x %#o %X\n", 10, 64, 64, 255, 8, 3054)
	fmt.Printf("%c %U %q %#U\n", 'é', 'é', 'é', '☺')
	fmt.Printf("%x % x %X %q\n", "hi!", "hi!", []byte("ok"), "line\n")
	fmt.Printf("%t %v %5t|\n", true, false, true)
	fmt.Printf("%d %s\n", "str", 5)
	fmt.Printf("%d %d\n", 1)
	fmt.Printf("%d\n", 1, 2)
	fmt.Printf("%!\n")
	fmt.Printf("%.2s|%5.1s|\n", "abcdef", "xyz")
	fmt.Printf("%6.2f%%\n", 12.345)
	fmt.Printf("%v %v %v %v\n", []string(nil), map[string]int(nil), []int{}, [0]int{})
	var ip *int
	fmt.Printf("%v %d\n", ip, []int{1, 2})
	fmt.Printf("%x %X\n", []int{10, 255}, "Zz")
	fmt.Printf("%3c|%-3c|\n", 'a', 'b')
	fmt.Printf("%.0f %.0f %.0f %.1f\n", 0.5, 1.5, 2.5, 0.05)
	fmt.Printf("%v %.3v %10.4v|\n", 1.0, 3.14159, 2.71828)
	fmt.Println(fmt.Sprint("a", 1, 2, "b", "c", 3.0, nil))
	fmt.Println(fmt.Sprintln("a", 1) + "|")
	fmt.Printf("%T %T %T %T\n", 1, "s", 2.0, []any{1})
}
