package main

import (
	"context"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/protocol"
	"github.com/stratahq/strata/kernel/remote"
	"github.com/stratahq/strata/projects/warehouse"
)

// lakeFiles lets a worker write a block's output into a DuckLake's shared
// data folder itself (warehouse.WriteLakeFile), so only the file's
// description goes back to the coordinator, which commits it; and read an
// upstream's file as a downstream block's input (warehouse.ReadLakeFile),
// so that table does not travel through the coordinator either.
type lakeFiles struct{}

var (
	_ remote.FileWriter = lakeFiles{}
	_ remote.FileReader = lakeFiles{}
)

func (lakeFiles) ReadInput(ctx context.Context, f protocol.InputFile) (*sdk.Table, error) {
	return warehouse.ReadLakeFile(ctx, warehouse.InputFile{Path: f.Path, Partition: f.Partition, Version: f.Version, Rows: f.Rows, Hash: f.Hash})
}

func (lakeFiles) WriteOutput(ctx context.Context, s *protocol.OutputSink, t *sdk.Table) (*protocol.WrittenOutput, error) {
	f, err := warehouse.WriteLakeFile(ctx, warehouse.FileSink{DataPath: s.DataPath, Product: s.Product, Partition: s.Partition, Version: s.Version, MinRows: s.MinRows}, t)
	if err != nil || f == nil {
		return nil, err
	}
	return &protocol.WrittenOutput{Path: f.Path, Rows: f.Rows, Bytes: f.Bytes, Hash: f.Hash, Schema: f.Schema,
		Partition: f.Partition, Version: f.Version}, nil
}
