package notebook

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stratahq/strata/projects/secrets"
)

// An editor cell that reads a secret and prints, logs, returns and fails
// with it (also printed in two writes cut inside the password, each
// holding part of it): every event the session sends shows *** instead.
func TestEditorCellSeesItsSecretMasked(t *testing.T) {
	const value = "postgres://app:cell-secret-pw@127.0.0.1/shop"
	t.Setenv("STRATA_TEST_CELL_PG", value)
	m, eng := newTestManager(t)
	p := *eng.Project()
	p.Secrets = map[string]secrets.Spec{"pg": {Env: "STRATA_TEST_CELL_PG"}}
	eng.SetProject(&p)
	rec := newRecorder()
	s, err := m.Attach("tab-secret", rec, "h1")
	if err != nil {
		t.Fatal(err)
	}
	cell := `package raw_orders

import (
	"fmt"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
)

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	pg, err := ctx.Secret("pg")
	if err != nil {
		return nil, err
	}
	fmt.Println("printed", pg)
	fmt.Print("split ", pg[:20])
	time.Sleep(300 * time.Millisecond) // two reads of the kernel's pipe, so two pieces
	fmt.Println(pg[20:])
	ctx.Log.Info("logged " + pg)
	if ctx.Var("fail", "") != "" {
		return nil, fmt.Errorf("failed with %s", pg)
	}
	t := sdk.NewTable(sdk.String("pg"))
	t.Append(pg)
	return t, nil
}
`
	ev := run(t, s, rec, Exec{ID: "c1", Pipeline: "clv", Block: "raw_orders", Source: cell, Partition: "2024-01-03"})
	if ev.Kind != EventResult {
		t.Fatalf("cell: %+v", ev.Error)
	}
	fail := strings.Replace(cell, `ctx.Var("fail", "") != ""`, "true", 1)
	if ev := run(t, s, rec, Exec{ID: "c2", Pipeline: "clv", Block: "raw_orders", Source: fail, Partition: "2024-01-03"}); ev.Kind != EventError || !strings.Contains(ev.Error.Message, "failed with ***") {
		t.Fatalf("failing cell: %+v %+v", ev.Result, ev.Error)
	}
	rec.mu.Lock()
	all, _ := json.Marshal(rec.events)
	rec.mu.Unlock()
	for _, leak := range []string{"cell-secret-pw", value[:20], value[20:]} {
		if strings.Contains(string(all), leak) {
			t.Fatalf("the session sent %q:\n%s", leak, all)
		}
	}
	for _, want := range []string{"printed ***", "logged ***", `"***"`, "split "} {
		if !strings.Contains(string(all), want) {
			t.Errorf("events lack %s:\n%s", want, all)
		}
	}
}
