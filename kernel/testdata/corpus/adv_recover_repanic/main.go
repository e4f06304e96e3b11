package main

import (
	"errors"
	"fmt"
)

type MyErr struct{ code int }

func (e *MyErr) Error() string { return fmt.Sprintf("myerr %d", e.code) }

func inner() {
	defer func() {
		r := recover()
		fmt.Println("inner saw:", r)
		panic(fmt.Sprintf("re-panic(%v)", r))
	}()
	panic("first")
}

func middle() (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("middle: %v", r)
		}
	}()
	inner()
	return nil
}

func errPanic() (err error) {
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(error); ok {
				err = e
				return
			}
			panic(r)
		}
	}()
	panic(&MyErr{42})
}

func main() {
	fmt.Println(middle())
	err := errPanic()
	var me *MyErr
	fmt.Println(errors.As(err, &me), me.code)
	func() {
		defer func() { fmt.Println("outer:", recover()) }()
		func() {
			defer func() {
				if r := recover(); r != nil {
					panic(errors.New("wrapped " + fmt.Sprint(r)))
				}
			}()
			var m map[string]int
			m["x"] = 1
		}()
	}()
	fmt.Println(recover())
}
