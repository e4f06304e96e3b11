// regexp with named groups, as a log parser uses it.
package main

import (
	"fmt"
	"regexp"
	"strings"
)

var line = regexp.MustCompile(`^(?P<ts>\d{4}-\d{2}-\d{2}T[\d:]+Z) (?P<level>[A-Z]+)\s+(?P<msg>.*?)(?: user=(?P<user>\w+))?$`)

func main() {
	logs := `2025-01-02T10:00:00Z INFO  started user=ann
2025-01-02T10:00:05Z WARN  disk at 91%
2025-01-02T10:01:00Z ERROR failed to write part-0007 user=bo
garbage line`
	names := line.SubexpNames()
	fmt.Println(names, line.NumSubexp(), line.SubexpIndex("user"))
	for _, l := range strings.Split(logs, "\n") {
		m := line.FindStringSubmatch(l)
		if m == nil {
			fmt.Println("no match:", l)
			continue
		}
		fields := map[string]string{}
		for i, n := range names {
			if i > 0 && n != "" {
				fields[n] = m[i]
			}
		}
		fmt.Println(fields)
	}
	re := regexp.MustCompile(`part-(\d+)`)
	fmt.Println(re.ReplaceAllString("part-0007 and part-12", "p${1}x"))
	fmt.Println(re.ReplaceAllString("part-0007", "$1x"))
	fmt.Println(re.ReplaceAllLiteralString("part-1", "$1"))
	fmt.Println(re.ReplaceAllStringFunc("part-3 part-44", strings.ToUpper))
	fmt.Println(re.FindAllStringSubmatchIndex("a part-1 b part-22", -1))
	fmt.Println(re.FindAllString("part-1 part-2 part-3", 2))
	kv := regexp.MustCompile(`(?P<k>\w+)=(?P<v>"[^"]*"|\S+)`)
	tmpl := "$k -> $v;"
	var dst []byte
	src := `a=1 b="two words" c=x`
	for _, sm := range kv.FindAllStringSubmatchIndex(src, -1) {
		dst = kv.ExpandString(dst, tmpl, src, sm)
	}
	fmt.Println(string(dst))
	fmt.Println(regexp.MustCompile(`(?i)error|warn`).MatchString("Disk WARNING"))
	fmt.Println(regexp.QuoteMeta("a.b*c[1]"))
	fmt.Printf("%q\n", regexp.MustCompile(`\s*,\s*`).Split("a , b,c ,  d", -1))
	_, err := regexp.Compile(`a(b`)
	fmt.Println(err)
	fmt.Println(regexp.MustCompile(`a+?`).FindString("aaa"), regexp.MustCompile(`(a|ab)(c|bcd)`).FindString("abcd"))
	lre := regexp.MustCompilePOSIX(`(a|ab)(c|bcd)`)
	fmt.Println(lre.FindString("abcd"), line.String() != "")
}
