package warehouse

import (
	"fmt"
	"strings"
)

// A run into an environment whose block's code changed but whose output did
// not is answered with the version the environment already reads
// (identicalVersions): nothing is staged. That version's code_hash is the
// code that wrote it (prod's), so without more the environment's next plan
// compares it with the new code and calls the partition stale, and every
// run recomputes it again. A credit records, for one owner, that version V
// of a partition is also what code hash H produces: the owner's plans call
// V current under H as under its own code_hash (CreditOf). It is neither a version nor a
// pin: the environment still reads what it read, follows prod's pointer
// where it held none, and a credit for a version it no longer reads
// matches nothing. One credit per owner and partition (the latest one);
// a reuse by the code that wrote the version needs none and writes
// nothing. Unpin (a discard) deletes the owner's credits.
var creditDDL = []string{
	`CREATE TABLE IF NOT EXISTS _strata.code_credits (
		owner     VARCHAR NOT NULL,
		product   VARCHAR NOT NULL,
		partition VARCHAR NOT NULL,
		version   INTEGER NOT NULL,
		code_hash VARCHAR NOT NULL
	)`,
}

// credit is one reused output's credit: the version, and the code hash of
// the other code that reproduced it.
type credit struct {
	owner, product, partition string
	version                   int
	hash                      string
}

// writeCredits replaces the owner's credits of the reused partitions, in two
// statements whatever their number.
func (tx *writeTx) writeCredits(cs []credit) error {
	if len(cs) == 0 {
		return nil
	}
	var keys, rows strings.Builder
	for i, c := range cs {
		if i > 0 {
			keys.WriteString(", ")
			rows.WriteString(", ")
		}
		fmt.Fprintf(&keys, "(%s, %s, %s)", quoteLiteral(c.owner), quoteLiteral(c.product), quoteLiteral(c.partition))
		fmt.Fprintf(&rows, "(%s, %s, %s, %d, %s)", quoteLiteral(c.owner), quoteLiteral(c.product), quoteLiteral(c.partition), c.version, quoteLiteral(c.hash))
	}
	// A join, not IN over a list of tuples (compared pairwise).
	if err := tx.exec(`DELETE FROM _strata.code_credits USING (VALUES ` + keys.String() + `) AS s(o, p, q)
		WHERE owner = s.o AND product = s.p AND partition = s.q`); err != nil {
		return fmt.Errorf("replace code credits: %w", err)
	}
	if err := tx.exec(`INSERT INTO _strata.code_credits (owner, product, partition, version, code_hash) VALUES ` + rows.String()); err != nil {
		return fmt.Errorf("record code credits: %w", err)
	}
	return nil
}

// CreditOf is the SQL expression of the code hash owner credited to the
// version aliased v (an empty string when none, or without owner), with
// its arguments.
// A plan calls a version current when its code_hash or its credit is the
// code's hash now: the code that wrote it, or the code that reproduced it
// (so code changed and then changed back is current too).
func CreditOf(owner string) (string, []any) {
	if owner == "" {
		return "''", nil
	}
	return `coalesce((SELECT max(c.code_hash) FROM _strata.code_credits c WHERE c.owner = ? AND c.product = v.product
		AND c.partition = v.partition AND c.version = v.version), '')`, []any{owner}
}
