package fingerprint

import (
	"strings"
	"testing"
)

const modBlock = `package ids

import (
	"github.com/google/uuid"
	"golang.org/x/text/language"

	"github.com/stratahq/strata/blocks/sdk"
)
`

const plainBlock = `package plain

import "github.com/stratahq/strata/blocks/sdk"
`

func goMod(uuid string) File {
	return File{Path: ModFile, Src: []byte("module p\n\ngo 1.26\n\nrequire (\n\tgithub.com/google/uuid " + uuid + "\n\tgolang.org/x/text v0.43.0\n\tgonum.org/v1/gonum v0.17.0\n)\n")}
}

// A change of go.mod makes stale the blocks that import a changed module,
// and only those; a block importing none keeps its plain code hash.
func TestModuleVersionsInFingerprint(t *testing.T) {
	t.Parallel()
	mod := []File{{Path: "blocks/ids/ids.go", Src: []byte(modBlock)}}
	plain := []File{{Path: "blocks/plain/plain.go", Src: []byte(plainBlock)}}
	with := func(files []File, gm File) []File { return append(append([]File{}, files...), gm) }

	if Block(with(plain, goMod("v1.5.0")), nil) != Code("blocks/plain/plain.go", []byte(plainBlock)) {
		t.Fatal("a block importing no module changed fingerprint with a go.mod beside it")
	}
	if Block(with(plain, goMod("v1.5.0")), nil) != Block(with(plain, goMod("v1.6.0")), nil) {
		t.Fatal("a block importing no module went stale on a go.mod change")
	}
	if Block(with(mod, goMod("v1.5.0")), nil) == Block(with(mod, goMod("v1.6.0")), nil) {
		t.Fatal("a block importing uuid stayed current when uuid changed version")
	}
	got := strings.Join(BlockModules(with(mod, goMod("v1.6.0"))), "; ")
	if got != "github.com/google/uuid v1.6.0; golang.org/x/text v0.43.0" {
		t.Fatalf("modules %q", got)
	}
	// gonum is required but not imported: its version does not count.
	other := File{Path: ModFile, Src: []byte(strings.Replace(string(goMod("v1.6.0").Src), "v0.17.0", "v0.16.0", 1))}
	if Block(with(mod, goMod("v1.6.0")), nil) != Block(with(mod, other), nil) {
		t.Fatal("a module the block does not import made it stale")
	}
}
