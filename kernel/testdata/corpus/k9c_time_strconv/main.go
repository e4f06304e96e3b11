package main

import (
	"fmt"
	"strconv"
	"time"
	"unicode"
	"unicode/utf8"
)

func main() {
	t := time.Date(2024, time.February, 29, 13, 4, 5, 123456789, time.UTC)
	fmt.Println(t)
	fmt.Println(t.Format(time.RFC3339), t.Format(time.RFC3339Nano), t.Format("2006-01-02 03:04:05PM Mon Jan"))
	fmt.Println(t.Format("Monday, 02-Jan-06 15:04:05.000 MST"), t.YearDay(), t.Weekday())
	fmt.Println(t.AddDate(1, 0, 0).Format("2006-01-02"), t.Add(36*time.Hour).Format(time.DateTime))
	d := 90*time.Minute + 30*time.Second + 5*time.Millisecond
	fmt.Println(d, d.Hours(), d.Round(time.Minute), d.Truncate(time.Hour), time.Duration(1500)*time.Microsecond)
	p, err := time.Parse("2006-01-02", "2024-13-01")
	fmt.Println(p.IsZero(), err)
	ny, _ := time.LoadLocation("America/New_York")
	fmt.Println(t.In(ny).Format(time.RFC822Z), t.Unix(), t.UnixMilli())
	fmt.Println(t.Truncate(24 * time.Hour).Equal(time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC)))

	n, err := strconv.Atoi("12a")
	fmt.Println(n, err)
	i, err := strconv.ParseInt("-9223372036854775809", 10, 64)
	fmt.Println(i, err)
	u, err := strconv.ParseUint("ff", 16, 8)
	fmt.Println(u, err)
	f, _ := strconv.ParseFloat("1e-3", 64)
	b, err := strconv.ParseBool("T")
	fmt.Println(f, b, err)
	fmt.Println(strconv.Quote("héllo\n\x00"), strconv.QuoteToASCII("héllo"), strconv.Itoa(-0), strconv.FormatFloat(1.0/3, 'f', -1, 32))
	fmt.Println(strconv.FormatInt(-255, 16), strconv.AppendQuoteRune(nil, '☺'), strconv.FormatFloat(2.5, 'e', 3, 64))
	s, err := strconv.Unquote(`"a\tb"`)
	fmt.Printf("%q %v\n", s, err)

	str := "héllo, 世界!"
	fmt.Println(len(str), utf8.RuneCountInString(str))
	for i, r := range str {
		if r > 127 {
			fmt.Print(i, ":", string(r), " ")
		}
	}
	fmt.Println()
	fmt.Println(str[1], str[1:3], []rune(str)[1], string(str[7]))
	bad := "a\xffb"
	for _, r := range bad {
		fmt.Print(r, " ")
	}
	fmt.Println(utf8.ValidString(bad))
	fmt.Println(unicode.IsUpper('É'), unicode.ToLower('É') == 'é', string(rune(65)), strconv.Itoa(65))
	fmt.Printf("%q %x % x %X %U\n", "tab\there", "hi", "hi", []byte("hé"), '世')
	fmt.Printf("%5.2s|%-6s|%6s|%q\n", "abcdef", "ab", "ab", 'x')
}
