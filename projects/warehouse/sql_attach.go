package warehouse

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/stratahq/strata/projects/secrets"
)

// A SQL block reads outside sources by ATTACHing them first:
//
//	ATTACH '{{secret "pg"}}' AS pg (TYPE postgres);
//	SELECT * FROM pg.public.orders
//	WHERE created_at >= $partition_start AND created_at < $partition_end
//
// Every statement but the last must be an ATTACH with an alias; the last is
// the block's one SELECT. The warehouse runs the ATTACHes itself, READ_ONLY
// (a SQL block reads its sources, it never writes them), and keeps each
// attachment open for the blocks after it: DuckDB attaches to the whole
// database, not to one connection, and a backfill's partitions would
// otherwise connect to Postgres once each. An alias names one target at a
// time; a block that attaches it to another target while a running block
// uses it is refused.
//
// `{{secret "NAME"}}` in an ATTACH's target is replaced, at run time only,
// by the project's secret NAME (UseSecrets); the value never appears in
// the block's text, its fingerprint, or an error, where it reads ***.

// attachment is one alias the warehouse has ATTACHed.
type attachment struct {
	stmt string // the statement that attached it, secrets resolved: what it is
	refs int    // blocks running with it now
}

// attachments are the aliases SQL blocks have attached.
type attachments struct {
	mu      sync.Mutex
	byAlias map[string]*attachment
	secrets *secrets.Store
}

// UseSecrets sets the project's secrets, which `{{secret "NAME"}}` in a
// SQL block's ATTACH resolves at run time, and which errors mask.
func (w *Warehouse) UseSecrets(s *secrets.Store) {
	w.attached.mu.Lock()
	w.attached.secrets = s
	w.attached.mu.Unlock()
}

// masks is what errors of SQL blocks are masked with.
func (w *Warehouse) masks() *secrets.Store {
	w.attached.mu.Lock()
	defer w.attached.mu.Unlock()
	return w.attached.secrets
}

// attachStmt is one ATTACH of a SQL block, as written.
type attachStmt struct {
	target  string // the string literal's content, placeholders unresolved
	alias   string
	options string // inside the parentheses, may be empty
}

// startsWithWrite matches a statement (after comments) that writes files:
// COPY … TO, EXPORT DATABASE.
var startsWithWrite = regexp.MustCompile(`(?is)^\s*(?:(?:--[^\n]*(?:\n|$)|/\*.*?\*/)\s*)*(?:COPY|EXPORT)\b`)

// errWriteInSQLBlock says where exports go instead. A SQL block computes a
// product and can run again (a retry, a resume, a backfill's reprocess), so
// a file it wrote would be written again, outside the export ledger that
// makes exports happen once.
var errWriteInSQLBlock = errors.New(`a SQL block cannot COPY … TO or EXPORT: it computes a product and may run again (retries, resumes, reprocessing), so its writes would not happen once. ` +
	`Write files from an Export block: ctx.ExportParquet("s3://bucket/prefix") or a folder writes the block's input as one Parquet file per partition (hive layout) under the export ledger; ` +
	`read the product from S3 or a folder with DuckDB afterwards (README: "S3 and S3-compatible servers")`)

var secretRef = regexp.MustCompile(`\{\{\s*secret\s+"([^"]*)"\s*\}\}`)

// splitSQLBlock separates a SQL block's leading ATTACH statements from its
// one SELECT.
func splitSQLBlock(query string) ([]attachStmt, string, error) {
	stmts := splitStatements(query)
	for _, st := range stmts {
		if startsWithWrite.MatchString(st) {
			return nil, "", errWriteInSQLBlock
		}
	}
	if len(stmts) <= 1 {
		if secretRef.MatchString(query) {
			return nil, "", errors.New(`{{secret "…"}} may only stand in an ATTACH's target, such as ATTACH '{{secret "pg"}}' AS pg (TYPE postgres)`)
		}
		return nil, query, nil
	}
	last := stmts[len(stmts)-1]
	var out []attachStmt
	for i, s := range stmts[:len(stmts)-1] {
		a, err := parseAttach(s)
		if err != nil {
			return nil, "", fmt.Errorf("statement %d of %d: %w (a SQL block is ATTACH statements, then one SELECT)", i+1, len(stmts), err)
		}
		out = append(out, a)
	}
	if secretRef.MatchString(last) {
		return nil, "", errors.New(`{{secret "…"}} may only stand in an ATTACH's target, not in the SELECT`)
	}
	return out, last, nil
}

// splitStatements splits at the semicolons outside strings, identifiers
// and comments, dropping statements that hold nothing but comments.
func splitStatements(q string) []string {
	var out []string
	start := 0
	flush := func(end int) {
		if words, _, _ := leadingWords(q[start:end], 1); len(words) > 0 {
			out = append(out, q[start:end])
		}
	}
	for i := 0; i < len(q); {
		switch c := q[i]; {
		case strings.HasPrefix(q[i:], "--"):
			i = skipLineComment(q, i)
		case strings.HasPrefix(q[i:], "/*"):
			i = skipBlockComment(q, i)
		case c == '\'' || c == '"':
			i = skipQuoted(q, i, c)
		case c == '$':
			i = skipDollar(q, i)
		case c == ';':
			flush(i)
			i++
			start = i
		default:
			i++
		}
	}
	flush(len(q))
	return out
}

var attachShape = regexp.MustCompile(`(?is)^\s*ATTACH\s+(?:DATABASE\s+)?(?:IF\s+NOT\s+EXISTS\s+)?'((?:[^']|'')*)'\s+AS\s+([A-Za-z_][A-Za-z0-9_]*)\s*(?:\((.*)\))?\s*$`)

// parseAttach reads `ATTACH 'target' AS alias [(options)]`.
func parseAttach(stmt string) (attachStmt, error) {
	s := stripSQLComments(stmt)
	m := attachShape.FindStringSubmatch(s)
	if m == nil {
		words, _, _ := leadingWords(s, 1)
		if len(words) == 0 || !strings.EqualFold(words[0], "ATTACH") {
			return attachStmt{}, fmt.Errorf("want ATTACH 'target' AS alias (options), got a statement starting with %q", strings.Join(words, ""))
		}
		return attachStmt{}, errors.New("want ATTACH 'target' AS alias (options): a quoted target and an alias to name its tables by")
	}
	a := attachStmt{target: strings.ReplaceAll(m[1], "''", "'"), alias: m[2], options: strings.TrimSpace(m[3])}
	switch strings.ToLower(a.alias) {
	case "main", "temp", "system", "memory", "_strata":
		return attachStmt{}, fmt.Errorf("alias %s is taken by the warehouse: choose another", a.alias)
	}
	return a, nil
}

// readOnlyOption is READ_ONLY as an ATTACH option, in any case.
var readOnlyOption = regexp.MustCompile(`(?i)\bREAD_ONLY\b`)

// attachAll ATTACHes what a block needs (or finds it attached already)
// and returns a release to call when the block is done.
func (w *Warehouse) attachAll(ctx context.Context, stmts []attachStmt) (release func(), err error) {
	if len(stmts) == 0 {
		return func() {}, nil
	}
	at := &w.attached
	at.mu.Lock()
	defer at.mu.Unlock()
	var held []*attachment
	release = func() {
		at.mu.Lock()
		defer at.mu.Unlock()
		for _, a := range held {
			a.refs--
		}
	}
	fail := func(err error) (func(), error) {
		for _, a := range held {
			a.refs--
		}
		return nil, maskError(at.secrets, err)
	}
	for _, s := range stmts {
		target, err := at.resolve(s.target)
		if err != nil {
			return fail(err)
		}
		opts := s.options
		if !readOnlyOption.MatchString(opts) {
			opts = strings.TrimSuffix(strings.TrimSpace(opts+", READ_ONLY"), ",")
			opts = strings.TrimPrefix(opts, ", ")
		}
		stmt := "ATTACH " + quoteString(target) + " AS " + quoteIdent(s.alias) + " (" + opts + ")"
		key := strings.ToLower(s.alias)
		cur := at.byAlias[key]
		switch {
		case cur != nil && cur.stmt == stmt:
		case cur != nil && cur.refs > 0:
			return fail(fmt.Errorf("ATTACH … AS %s: a block running now has %s attached to another target; give this one another alias", s.alias, s.alias))
		default:
			if cur != nil {
				if _, err := w.db.ExecContext(ctx, "DETACH "+quoteIdent(s.alias)); err != nil {
					return fail(fmt.Errorf("detach %s to attach it anew: %w", s.alias, err))
				}
				delete(at.byAlias, key)
			}
			if _, err := w.db.ExecContext(ctx, stmt); err != nil {
				return fail(fmt.Errorf("ATTACH … AS %s: %w", s.alias, err))
			}
			cur = &attachment{stmt: stmt}
			if at.byAlias == nil {
				at.byAlias = map[string]*attachment{}
			}
			at.byAlias[key] = cur
		}
		cur.refs++
		held = append(held, cur)
	}
	return release, nil
}

// resolve replaces the secret placeholders of an ATTACH target.
func (at *attachments) resolve(target string) (string, error) {
	var err error
	out := secretRef.ReplaceAllStringFunc(target, func(m string) string {
		if err != nil {
			return ""
		}
		v, e := at.secrets.Resolve(secretRef.FindStringSubmatch(m)[1])
		if e != nil {
			err = e
		}
		return v
	})
	return out, err
}

// maskError replaces every secret value in err's text by ***: DuckDB's
// errors quote the connection string they could not use.
func maskError(s *secrets.Store, err error) error {
	if err == nil || !s.Active() {
		return err
	}
	if msg := s.Mask(err.Error()); msg != err.Error() {
		return errors.New(msg)
	}
	return err
}

func quoteString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
