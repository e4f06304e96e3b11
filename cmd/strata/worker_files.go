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
	_ remote.SQLRunner  = lakeFiles{}
)

// RunSQL runs a SQL block over the outputs of its run (warehouse.RunSQLOnTables),
// with the parameters the coordinator would give it ($partition_key,
// $partition_start, $partition_end in the pipeline's zone, $dim_<name>).
func (lakeFiles) RunSQL(ctx context.Context, req *protocol.ExecRequest, inputs []*sdk.Table) (*sdk.Table, error) {
	p, err := protocol.BlockPartition(req.Partition)
	if err != nil {
		return nil, err
	}
	params := map[string]any{"partition_key": req.Partition.Key, "partition_start": p.Start, "partition_end": p.End}
	for _, d := range req.Partition.Dims {
		params["dim_"+d.Name] = d.Value
	}
	return warehouse.RunSQLOnTables(ctx, req.Source, req.Inputs, inputs, params)
}

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
