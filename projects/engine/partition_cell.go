package engine

import (
	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/protocol"
	"github.com/stratahq/strata/projects/partitions"
)

// What a block sees of the cell it computes. A time-only pipeline's blocks
// see exactly what they saw before dimensions existed; a day × region
// pipeline's see the cell key, its time part and region=eu.

// wirePartition is the partition handed to a Go block.
func wirePartition(spec partitions.Spec, p partitions.Partition) protocol.PartitionWire {
	w := protocol.PartitionWire{Key: p.Key, Start: p.Start, End: p.End, Interval: string(spec.Interval), Zone: spec.Zone.String()}
	if spec.Dimensional() && len(p.Values) == len(spec.Dims) {
		w.TimeKey = spec.TimeKey(p)
		w.Dims = make([]sdk.Dim, len(spec.Dims))
		for i, d := range spec.Dims {
			w.Dims[i] = sdk.Dim{Name: d.Name, Value: p.Values[i]}
		}
	}
	return w
}

// sqlParams are the parameters a SQL block may use: $partition_key,
// $partition_start, $partition_end, and $dim_<name> for each value
// dimension ($dim_region).
func sqlParams(spec partitions.Spec, p partitions.Partition) map[string]any {
	m := map[string]any{"partition_key": p.Key, "partition_start": p.Start, "partition_end": p.End}
	for i, d := range spec.Dims {
		if i < len(p.Values) {
			m["dim_"+d.Name] = p.Values[i]
		}
	}
	return m
}
