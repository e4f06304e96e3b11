package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

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
//
// Inputs that are committed versions (req.InputVersions) are read from the
// lake first, exactly those versions, with the catalog's password asked of
// the coordinator by its secret's name (sealed on the wire).
func (lakeFiles) RunSQL(ctx context.Context, req *protocol.ExecRequest, inputs []*sdk.Table, secret remote.SecretFunc) (*sdk.Table, error) {
	p, err := protocol.BlockPartition(req.Partition)
	if err != nil {
		return nil, err
	}
	if inputs, err = readLakeInputs(ctx, req, inputs, secret); err != nil {
		return nil, err
	}
	params := map[string]any{"partition_key": req.Partition.Key, "partition_start": p.Start, "partition_end": p.End}
	for _, d := range req.Partition.Dims {
		params["dim_"+d.Name] = d.Value
	}
	return warehouse.RunSQLOnTables(ctx, req.Source, req.Inputs, inputs, params)
}

func (lakeFiles) ReadInput(ctx context.Context, req *protocol.ExecRequest, f protocol.InputFile, secret remote.SecretFunc) (*sdk.Table, error) {
	in := warehouse.InputFile{Path: f.Path, Partition: f.Partition, Version: f.Version, Rows: f.Rows, Hash: f.Hash}
	if strings.Contains(f.Path, "://") {
		key, err := bucketKey(ctx, req.DataS3, secret)
		if err != nil {
			return nil, err
		}
		in.Key = key.WithKey(key.keyID, key.secret)
	}
	return warehouse.ReadLakeFile(ctx, in)
}

func (lakeFiles) WriteOutput(ctx context.Context, req *protocol.ExecRequest, t *sdk.Table, secret remote.SecretFunc) (*protocol.WrittenOutput, error) {
	s := req.Sink
	sink := warehouse.FileSink{DataPath: s.DataPath, Product: s.Product, Partition: s.Partition, Version: s.Version, MinRows: s.MinRows}
	if strings.Contains(s.DataPath, "://") {
		if t == nil || t.Len() < s.MinRows {
			return nil, nil // a table: no need for the key
		}
		key, err := bucketKey(ctx, req.DataS3, secret)
		if err != nil {
			return nil, err
		}
		sink.S3, sink.Key = key.LakeS3, key.WithKey(key.keyID, key.secret)
	}
	f, err := warehouse.WriteLakeFile(ctx, sink, t)
	if err != nil || f == nil {
		return nil, err
	}
	return &protocol.WrittenOutput{Path: f.Path, Rows: f.Rows, Bytes: f.Bytes, Hash: f.Hash, Schema: f.Schema,
		Partition: f.Partition, Version: f.Version}, nil
}

// readLakeInputs puts the committed versions req.InputVersions names in
// their input slots, read from req.Lake.
func readLakeInputs(ctx context.Context, req *protocol.ExecRequest, inputs []*sdk.Table, secret remote.SecretFunc) ([]*sdk.Table, error) {
	if len(req.InputVersions) == 0 {
		return inputs, nil
	}
	if req.Lake == nil {
		return nil, errors.New("the task reads committed versions but names no lake")
	}
	password := ""
	if req.Lake.PasswordSecret != "" {
		var err error
		if password, err = secret(ctx, req.Lake.PasswordSecret); err != nil {
			return nil, fmt.Errorf("the lake catalog's password (secret %q): %w", req.Lake.PasswordSecret, err)
		}
	}
	refs := make([][]warehouse.VersionRef, len(req.InputVersions))
	for i, iv := range req.InputVersions {
		if iv.Input < 0 || iv.Input >= len(inputs) {
			return nil, fmt.Errorf("input %d of %d", iv.Input, len(inputs))
		}
		for _, v := range iv.Versions {
			refs[i] = append(refs[i], warehouse.VersionRef{Product: iv.Product, Partition: v.Partition, Version: v.Version})
		}
	}
	lake := warehouse.RemoteLake{Catalog: req.Lake.Catalog, DataPath: req.Lake.DataPath, PasswordSecret: req.Lake.PasswordSecret}
	if strings.Contains(req.Lake.DataPath, "://") {
		key, err := bucketKey(ctx, req.DataS3, secret)
		if err != nil {
			return nil, err
		}
		lake.S3, lake.Key = key.LakeS3, key.WithKey(key.keyID, key.secret)
	}
	tables, err := warehouse.ReadLakeVersions(ctx, lake, password, refs)
	if err != nil {
		return nil, err
	}
	out := append([]*sdk.Table(nil), inputs...)
	for i, iv := range req.InputVersions {
		out[iv.Input] = tables[i]
	}
	return out, nil
}

// s3Key is a lake's bucket as the task describes it, with the key this
// worker was given for it.
type s3Key struct {
	*warehouse.LakeS3
	keyID, secret string
}

// bucketKey asks for the key of the lake's bucket the task names, by its
// s3 secret's name (NAME.key_id and NAME.secret, sealed on the wire).
func bucketKey(ctx context.Context, a *protocol.S3Access, secret remote.SecretFunc) (s3Key, error) {
	if a == nil || a.Secret == "" {
		return s3Key{}, errors.New("the lake's data path is in S3 and the task names no s3 secret to reach it")
	}
	if err := warehouse.S3FilesReady(ctx); err != nil {
		return s3Key{}, err // not asked for: this worker could not use it
	}
	var k s3Key
	var err error
	if k.keyID, err = secret(ctx, a.Secret+".key_id"); err != nil {
		return s3Key{}, fmt.Errorf("the lake bucket's key id (secret %q): %w", a.Secret, err)
	}
	if k.secret, err = secret(ctx, a.Secret+".secret"); err != nil {
		return s3Key{}, fmt.Errorf("the lake bucket's secret (secret %q): %w", a.Secret, err)
	}
	k.LakeS3 = &warehouse.LakeS3{DataPath: a.DataPath, Secret: a.Secret, Endpoint: a.Endpoint, Region: a.Region, URLStyle: a.URLStyle, UseSSL: a.UseSSL, Scope: a.Scope}
	return k, nil
}
