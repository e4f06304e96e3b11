package oslog

import (
	"fmt"
	"log"
	"os"

	"github.com/stratahq/strata/blocks/sdk"
)

// os and log as Go developers use them: every call here was "undefined".
func Load(ctx *sdk.Context) (*sdk.Table, error) {
	os.Setenv("STRATA_GREETING", "hello")
	fmt.Println("env:", os.Getenv("STRATA_GREETING"), os.Getenv("STRATA_UNSET") == "")
	f, err := os.CreateTemp("", "strata-*.txt")
	if err != nil {
		return nil, err
	}
	defer os.Remove(f.Name())
	fmt.Fprintf(f, "line one\n")
	f.Close()
	b, err := os.ReadFile(f.Name())
	if err != nil {
		return nil, err
	}
	fmt.Fprint(os.Stdout, "read: ", string(b))
	os.Stdout.WriteString("written with os.Stdout.WriteString\n")
	log.SetFlags(0)
	log.SetOutput(os.Stdout)
	log.SetPrefix("[log] ")
	log.Println("through the log package")
	fmt.Println("after log")
	t := sdk.NewTable(sdk.Int64("bytes"))
	t.Append(int64(len(b)))
	return t, nil
}
