package interp

import (
	"go/token"
	"go/types"
	"reflect"
	"testing"
	"text/scanner"

	yaegi "github.com/traefik/yaegi/interp"
)

// A module's table can hold an alias of another package's type that has
// the same name as one of the module's own (the AWS SDK's s3 declares
// Options and EndpointResolverOptions = internal/endpoints.Options). The
// alias took the package's own name, so s3.Options{…} was typed
// endpoints.Options and s3.New(s3.Options{…}) refused as a type error.
func TestImporterAliasKeepsItsOwnName(t *testing.T) {
	im := newSymbolImporter(yaegi.Exports{"example.com/fake/fake": {
		"APosition": reflect.ValueOf((*scanner.Position)(nil)), // sorts first, like EndpointResolverOptions
		"Position":  reflect.ValueOf((*token.Position)(nil)),
	}})
	pkg, err := im.Import("example.com/fake")
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"Position": "go/token.Position", "APosition": "text/scanner.Position"} {
		obj := pkg.Scope().Lookup(name)
		if obj == nil {
			t.Errorf("%s: not in the package's scope (names %v)", name, pkg.Scope().Names())
			continue
		}
		if obj.Name() != name {
			t.Errorf("%s: the scope's object is named %s", name, obj.Name())
		}
		if got := types.Unalias(obj.Type()).String(); got != want {
			t.Errorf("%s: type %s, want %s", name, got, want)
		}
	}
}
