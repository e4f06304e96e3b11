// strconv edge cases a loader hits: bases, underscores, ranges, floats,
// quoting and the errors' text.
package main

import (
	"errors"
	"fmt"
	"strconv"
)

func main() {
	for _, s := range []string{"0x1f", "0b101", "0o17", "017", "1_000", "-0x80", "+42", "9223372036854775808", "abc", ""} {
		n, err := strconv.ParseInt(s, 0, 64)
		fmt.Println(s, n, err)
	}
	for _, s := range []string{"255", "256", "-1"} {
		n, err := strconv.ParseUint(s, 10, 8)
		fmt.Println(s, n, err)
	}
	n8, err := strconv.ParseInt("-129", 10, 8)
	fmt.Println(n8, err)
	var ne *strconv.NumError
	if errors.As(err, &ne) {
		fmt.Println(ne.Func, ne.Num, ne.Err == strconv.ErrRange)
	}
	for _, s := range []string{"1e400", "-1e400", "inf", "NaN", "0x1p-2", "1e-400", ".5", "1_0.5"} {
		f, err := strconv.ParseFloat(s, 64)
		fmt.Println(s, f, err)
	}
	f32, _ := strconv.ParseFloat("0.1", 32)
	fmt.Println(f32, float32(f32))
	for _, f := range []float64{0.1, 1.0 / 3, 1e21, 1e20, 123456789.0, 5e-324, -0.0} {
		fmt.Println(strconv.FormatFloat(f, 'g', -1, 64), strconv.FormatFloat(f, 'f', 2, 64), strconv.FormatFloat(f, 'e', 3, 64))
	}
	fmt.Println(strconv.FormatInt(-255, 16), strconv.FormatInt(35, 36), strconv.FormatUint(1<<63, 2))
	fmt.Println(strconv.Quote("tab\there \"q\" é \x00"), strconv.QuoteToASCII("é☺"), strconv.QuoteRune('☺'))
	u, err := strconv.Unquote(`"a\tb\u00e9"`)
	fmt.Println(u, err)
	_, err = strconv.Unquote(`'ab'`)
	fmt.Println(err)
	b, err := strconv.ParseBool("T")
	fmt.Println(b, err)
	_, err = strconv.ParseBool("yes")
	fmt.Println(err)
	buf := []byte("n=")
	buf = strconv.AppendInt(buf, -7, 10)
	buf = strconv.AppendQuote(buf, "x")
	buf = strconv.AppendBool(buf, true)
	fmt.Println(string(buf))
	_, err = strconv.Atoi("12a")
	fmt.Println(err)
}
