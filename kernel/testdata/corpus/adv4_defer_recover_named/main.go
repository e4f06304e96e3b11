// Deferred closures run last-in first-out and can rewrite named results,
// including after a recovered panic.
package main

import (
	"errors"
	"fmt"
	"strconv"
)

func parseAll(in []string) (sum int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("recovered: %v", r)
			sum = -1
		}
	}()
	for _, s := range in {
		n, e := strconv.Atoi(s)
		if e != nil {
			panic(e.Error())
		}
		sum += n
	}
	return sum, nil
}

func trace(name string, log *[]string) func() {
	*log = append(*log, "enter "+name)
	return func() { *log = append(*log, "exit "+name) }
}

func double() (n int) {
	defer func() { n *= 2 }()
	defer func() { n += 3 }()
	return 1
}

func errOnClose() (err error) {
	defer func() {
		if cerr := errors.New("close failed"); err == nil {
			err = cerr
		}
	}()
	return nil
}

func main() {
	fmt.Println(parseAll([]string{"1", "2", "3"}))
	fmt.Println(parseAll([]string{"1", "x", "3"}))
	var log []string
	func() {
		defer trace("outer", &log)()
		func() {
			defer trace("inner", &log)()
			log = append(log, "work")
		}()
	}()
	fmt.Println(log)
	fmt.Println(double())
	fmt.Println(errOnClose())
	for i := 0; i < 3; i++ {
		defer fmt.Println("deferred", i)
	}
	fmt.Println("end of main")
}
