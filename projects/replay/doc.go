// Package replay runs replay tests: the working-tree code of a pipeline's
// blocks computed again over stored partitions, each block on exactly the
// upstream versions its stored version recorded, and compared with that
// stored version by the review's keyed row diff (engine.Replayer does the
// computing and comparing; it writes nothing to the warehouse). This
// package chooses the partitions, runs them with the pipeline's
// concurrency, applies the --expect-unchanged gates and writes the report
// as text, JSON or JUnit XML (for CI). It knows nothing of HTTP or the CLI.
package replay
