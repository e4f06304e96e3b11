package main

import "fmt"

type ByteSize float64

const (
	_           = iota // ignore first value by assigning to blank identifier
	KB ByteSize = 1 << (10 * iota)
	MB
	GB
	TB
	PB
	EB
	ZB
	YB
)

func (b ByteSize) String() string {
	switch {
	case b >= YB:
		return fmt.Sprintf("%.2fYB", b/YB)
	case b >= ZB:
		return fmt.Sprintf("%.2fZB", b/ZB)
	case b >= EB:
		return fmt.Sprintf("%.2fEB", b/EB)
	case b >= PB:
		return fmt.Sprintf("%.2fPB", b/PB)
	case b >= TB:
		return fmt.Sprintf("%.2fTB", b/TB)
	case b >= GB:
		return fmt.Sprintf("%.2fGB", b/GB)
	case b >= MB:
		return fmt.Sprintf("%.2fMB", b/MB)
	case b >= KB:
		return fmt.Sprintf("%.2fKB", b/KB)
	}
	return fmt.Sprintf("%.2fB", b)
}

type Weekday int

const (
	Sunday Weekday = iota
	Monday
	Tuesday
	_
	Thursday
	Friday = iota * 10
	Saturday
)

const (
	a, b = iota, iota * 2
	c, d
	e, f = "e", iota
)

func main() {
	fmt.Println(YB, ByteSize(1e13), KB, ByteSize(512), MB*3/2)
	fmt.Println(ByteSize(1e13).String(), float64(GB))
	sizes := []ByteSize{1023, 1024, 1 << 20, 5 * GB}
	for _, s := range sizes {
		fmt.Print(s.String(), " ")
	}
	fmt.Println()
	fmt.Println(int(Monday), int(Tuesday), int(Thursday), int(Friday), int(Saturday))
	fmt.Println(a, b, c, d, e, f)
	fmt.Printf("%.0f %e\n", float64(EB), float64(YB))
}
