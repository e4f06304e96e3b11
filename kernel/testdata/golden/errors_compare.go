package errcmp

import (
	"fmt"

	"github.com/stratahq/strata/blocks/sdk"
)

type status struct{ code int }

func (s *status) Error() string { return fmt.Sprint("status ", s.code) }

var errGone error = &status{410}

func find(k string) error {
	if k == "old" {
		return errGone
	}
	return nil
}

// == between errors of the block's own types panicked ("comparing
// uncomparable type interp._error").
func Load(ctx *sdk.Context) (*sdk.Table, error) {
	err := find("old")
	fmt.Println(err == errGone, err != errGone, find("new") == nil, err == error(&status{410}))
	return sdk.NewTable(sdk.Int64("n")), nil
}
