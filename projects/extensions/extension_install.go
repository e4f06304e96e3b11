package extensions

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Options configure Install.
type Options struct {
	// From are folders (of .duckdb_extension files or wheels) and wheels
	// to install from, searched in order. Empty: DuckDB's own repository,
	// which needs the network.
	From []string
	// Force reinstalls an extension that is installed already.
	Force bool
}

// Result says what Install did with one extension.
type Result struct {
	Name   string // as the project names it
	Path   string // the installed file
	Source string // the file or wheel it came from, or "DuckDB's repository"
	// Already is set when it was installed before and left alone.
	Already bool
}

// Install puts each named extension into the extension folder of this
// binary's DuckDB and checks that it loads. It stops at the first failure,
// with the results so far.
func Install(ctx context.Context, names []string, opts Options) ([]Result, error) {
	for _, n := range names {
		if err := CheckName(n); err != nil {
			return nil, err
		}
	}
	db, err := openMemory()
	if err != nil {
		return nil, err
	}
	defer db.Close()
	// One connection: INSTALL and LOAD of one extension in sequence, and
	// the temporary copies are gone before the next.
	db.SetMaxOpenConns(1)
	target, err := targetOf(ctx, db)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(target.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("create the extension folder: %w", err)
	}
	var out []Result
	for _, name := range names {
		r, err := installOne(ctx, db, target, name, opts)
		if err != nil {
			return out, err
		}
		out = append(out, r)
	}
	return out, nil
}

func installOne(ctx context.Context, db *sql.DB, target Target, name string, opts Options) (Result, error) {
	canon := Canonical(name)
	r := Result{Name: name, Path: filepath.Join(target.Dir, canon+".duckdb_extension")}
	if !opts.Force {
		if _, err := os.Stat(r.Path); err == nil {
			r.Already = true
			return r, nil
		}
	}
	install := "INSTALL"
	if opts.Force {
		install = "FORCE INSTALL"
	}
	if len(opts.From) == 0 {
		r.Source = "DuckDB's repository"
		if _, err := db.ExecContext(ctx, install+" "+canon); err != nil {
			return r, fmt.Errorf("install extension %s from DuckDB's repository: %w\n(offline: pip download duckdb-extension-%s==%s --no-deps -d DIR, then strata extensions install --from DIR)",
				name, err, name, strings.TrimPrefix(target.Version, "v"))
		}
	} else {
		f, notes, err := findIn(opts.From, name, target.Version)
		if err != nil {
			return r, err
		}
		if f == nil {
			msg := fmt.Sprintf("extension %s for DuckDB %s is not in %s: want %s there, or a wheel (pip download duckdb-extension-%s==%s --no-deps) holding extensions/%s/%s.duckdb_extension",
				name, target.Version, strings.Join(opts.From, ", "), strings.Join(fileNames(name), " or "),
				name, strings.TrimPrefix(target.Version, "v"), target.Version, name)
			if len(notes) > 0 {
				msg += " (" + strings.Join(notes, "; ") + ")"
			}
			return r, fmt.Errorf("%s", msg)
		}
		r.Source = f.desc
		if err := installFile(ctx, db, install, canon, f); err != nil {
			return r, fmt.Errorf("install extension %s from %s: %w", name, f.desc, err)
		}
	}
	// DuckDB checks the file's platform, version and signature at LOAD:
	// a file that cannot load is reported now, not at the first run.
	if _, err := db.ExecContext(ctx, "LOAD "+canon); err != nil {
		return r, fmt.Errorf("extension %s was installed at %s but does not load: %w", name, r.Path, err)
	}
	return r, nil
}

// installFile copies f to a temporary file under its canonical name (the
// name DuckDB installs it as) and INSTALLs it from there.
func installFile(ctx context.Context, db *sql.DB, install, canon string, f *found) error {
	tmp, err := os.MkdirTemp("", "strata-extension-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	p := filepath.Join(tmp, canon+".duckdb_extension")
	if err := copyOut(f, p); err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, install+" "+quoteString(p))
	return err
}

func copyOut(f *found, dst string) error {
	src, err := f.open()
	if err != nil {
		return err
	}
	defer src.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, src); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

func quoteString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
