package protocol

import "github.com/stratahq/strata/blocks/sdk"

// OutputSink is where a worker may write a block's output itself: a
// warehouse whose data is Parquet in a folder every machine mounts (a
// DuckLake) takes the file as it is, and the coordinator only registers
// it when it commits the version, so the rows never travel back through
// the coordinator.
type OutputSink struct {
	// DataPath is the data folder, as the coordinator sees it (a shared
	// folder mounted at the same path on the workers), or an s3:// prefix
	// (ExecRequest.DataS3 says how to reach it).
	DataPath  string `json:"data_path"`
	Product   string `json:"product"`
	Partition string `json:"partition"`
	// Version is the version number the coordinator expects to give the
	// output. The file carries it in its rows; a commit that gives another
	// number (another write of the partition came first) copies the rows
	// instead of registering the file, so a wrong guess costs time, never
	// correctness.
	Version int `json:"version"`
	// Return asks for the table as well: a block of the same partition
	// reads it on the coordinator. The file still saves the coordinator
	// writing the rows.
	Return bool `json:"return,omitempty"`
	// MinRows: a smaller output comes back as a table (its file would cost
	// the commit more than its rows).
	MinRows int `json:"min_rows,omitempty"`
}

// WrittenOutput is what the coordinator needs to commit an output a worker
// wrote: the file, its row count, content hash and schema.
type WrittenOutput struct {
	Path      string      `json:"path"`
	Rows      int64       `json:"rows"`
	Bytes     int64       `json:"bytes"`
	Hash      string      `json:"hash"`
	Schema    []sdk.Field `json:"schema"`
	Partition string      `json:"partition"`
	Version   int         `json:"version"`
}

// InputFile is one input a block reads from the file its upstream wrote
// (WrittenOutput) rather than from a table the coordinator sends. The
// reader checks the file holds exactly that output: its partition and
// version rows, their count and content hash, so a block never reads
// another version than the one its run produced.
type InputFile struct {
	Input     int    `json:"input"` // index into ExecRequest.Inputs
	Path      string `json:"path"`
	Partition string `json:"partition"`
	Version   int    `json:"version"`
	Rows      int64  `json:"rows"`
	Hash      string `json:"hash"`
}

// LakeRead is how a worker reaches the DuckLake whose committed versions a
// SQL task reads: the catalog's connection string without its password,
// the data folder, and the name of the project secret holding the
// password. The worker asks for that secret through the sealed host call,
// so the password never crosses NATS in clear.
type LakeRead struct {
	Catalog        string `json:"catalog"`
	DataPath       string `json:"data_path"`
	PasswordSecret string `json:"password_secret,omitempty"`
}

// InputVersions is one input a SQL task reads from committed versions of
// a product: exactly these partitions at these versions, as the
// coordinator pinned them. A version no longer in the lake (retention
// since) is an ErrNotHere, never another version.
type InputVersions struct {
	Input    int             `json:"input"` // index into ExecRequest.Inputs
	Product  string          `json:"product"`
	Versions []PinnedVersion `json:"versions"`
}

// PinnedVersion is one partition's version.
type PinnedVersion struct {
	Partition string `json:"partition"`
	Version   int    `json:"version"`
}

// S3Access is how a worker reaches a lake's data path in an S3-compatible
// bucket: the prefix, the settings of the project's s3 secret that are not
// secret, and that secret's name. The key id and the secret never travel
// with a task: the worker asks for Secret+".key_id" and Secret+".secret"
// through the sealed host call, as for a catalog's password.
type S3Access struct {
	DataPath string `json:"data_path"`
	Secret   string `json:"secret"`
	Endpoint string `json:"endpoint,omitempty"`
	Region   string `json:"region,omitempty"`
	URLStyle string `json:"url_style,omitempty"`
	UseSSL   *bool  `json:"use_ssl,omitempty"`
	Scope    string `json:"scope,omitempty"`
}
