package supervisor

import (
	"strings"
	"testing"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/protocol"
)

// A kernel does not inherit the server's environment: a block listing
// os.Environ sees no credential the server holds, only what a program
// needs (PATH) and what the supervisor adds.
func TestKernelDoesNotInheritTheServersCredentials(t *testing.T) {
	t.Setenv("STRATA_TEST_PG_URL", "postgres://app:env-leak-pw@127.0.0.1/shop")
	k := startKernel(t)
	req := loadReq(`func Load(ctx *sdk.Context) (*sdk.Table, error) {
	t := sdk.NewTable(sdk.String("kv"))
	for _, kv := range os.Environ() {
		t.Append(kv)
	}
	return t, nil
}`)
	req.Source = strings.Replace(req.Source, "\"fmt\"\n", "\"fmt\"\n\t\"os\"\n", 1)
	out := mustRun(t, k, req, &collect{})
	env := strings.Join(out.Column("kv").Strings(), "\n")
	if strings.Contains(env, "env-leak-pw") || strings.Contains(env, "STRATA_TEST_PG_URL") {
		t.Fatalf("the kernel sees the server's credential:\n%s", env)
	}
	if !strings.Contains(env, "PATH=") {
		t.Fatalf("the kernel has no PATH:\n%s", env)
	}
}

// ctx.Secret asks the coordinator by name, over the kernel's pipe.
func TestCtxSecretIsAHostCall(t *testing.T) {
	t.Parallel()
	k := startKernel(t)
	h := &collect{answer: func(c *protocol.HostCall) (*sdk.Table, error) {
		return protocol.SecretTable("value-of-" + c.Secret), nil
	}}
	req := loadReq(`func Load(ctx *sdk.Context) (*sdk.Table, error) {
	v, err := ctx.Secret("pg")
	if err != nil {
		return nil, err
	}
	t := sdk.NewTable(sdk.String("v"))
	t.Append(v)
	return t, nil
}`)
	out := mustRun(t, k, req, h)
	if got := out.Column("v").Strings()[0]; got != "value-of-pg" {
		t.Fatalf("ctx.Secret = %q", got)
	}
	if len(h.calls) != 1 || h.calls[0].Method != "secret" {
		t.Fatalf("calls %+v", h.calls)
	}
}
