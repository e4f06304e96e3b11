package warehouse

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stratahq/strata/blocks/sdk"
)

// A downstream block reads the file its upstream wrote on a worker as the
// table the upstream returned (nulls, decimals, times and all), without the
// warehouse's bookkeeping columns; a file that does not hold exactly that
// output (other version, other rows) is refused rather than read.
func TestReadLakeFileIsTheWrittenOutput(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	tbl := bigTable(3000, 4, true)
	d := sdk.NewTable(sdk.String("note"), sdk.Decimal("price", 10, 2))
	cols := d.Columns()
	for i := range 3000 {
		if i%3 == 0 {
			cols[0].AppendNull()
		} else {
			cols[0].AppendString("n" + strings.Repeat("x", i%4))
		}
		_ = cols[1].AppendDecimal(strconv.Itoa(i*7/100) + "." + fmt.Sprintf("%02d", i*7%100))
	}
	for _, c := range cols {
		tbl.AddColumn(c)
	}
	if err := tbl.Err(); err != nil {
		t.Fatal(err)
	}
	sink := FileSink{DataPath: filepath.Join(dir, "data"), Product: "orders", Partition: "2024-03-10", Version: 3, MinRows: 1}
	f, err := WriteLakeFile(ctx, sink, tbl)
	if err != nil {
		t.Fatal(err)
	}
	in := InputFile{Path: f.Path, Partition: f.Partition, Version: f.Version, Rows: f.Rows, Hash: f.Hash}
	got, err := ReadLakeFile(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	schema, _ := tableSchema(tbl)
	gotSchema, _ := tableSchema(got)
	if len(gotSchema) != len(schema) {
		t.Fatalf("read columns %v, want %v", gotSchema, schema)
	}
	for i := range schema {
		if gotSchema[i].Name != schema[i].Name || gotSchema[i].SQLType() != schema[i].SQLType() {
			t.Fatalf("column %d read as %s %s, written %s %s", i, gotSchema[i].Name, gotSchema[i].SQLType(), schema[i].Name, schema[i].SQLType())
		}
	}
	if contentHash(got, gotSchema) != contentHash(tbl, schema) || got.Len() != tbl.Len() {
		t.Fatalf("read %d rows with another content than the %d written", got.Len(), tbl.Len())
	}

	for name, bad := range map[string]InputFile{
		"another version":   {Path: f.Path, Partition: f.Partition, Version: 2, Rows: f.Rows, Hash: f.Hash},
		"another partition": {Path: f.Path, Partition: "2024-03-11", Version: 3, Rows: f.Rows, Hash: f.Hash},
		"other rows":        {Path: f.Path, Partition: f.Partition, Version: 3, Rows: f.Rows, Hash: "0123"},
		"no file":           {Path: f.Path + ".gone", Partition: f.Partition, Version: 3, Rows: f.Rows, Hash: f.Hash},
	} {
		if _, err := ReadLakeFile(ctx, bad); err == nil || !strings.Contains(err.Error(), f.Path) {
			t.Errorf("%s: read %v, want an error naming the file", name, err)
		}
	}
}
