// Package tableview pages through a table result the way the preview grid
// asks for it: a filter (rows where any cell's text contains a string,
// case-insensitively), a sort on one or more columns, then offset and limit,
// with the count of rows that passed the filter. It owns the semantics once,
// for both places a result lives: an editor cell's output kept in memory
// (Apply sorts and filters an sdk.Table) and a stored product window (SQL
// gives the WHERE and ORDER BY the warehouse wraps around its read). Both
// order the same way: typed comparison, nulls last in either direction, the
// original row order breaking ties. It knows nothing of HTTP or DuckDB files.
package tableview
