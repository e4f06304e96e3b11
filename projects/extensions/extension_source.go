package extensions

import (
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// found is one extension file located in a source.
type found struct {
	desc string // for messages: the file, or "wheel W (entry E)"
	open func() (io.ReadCloser, error)
}

// findIn looks for extension name, built for DuckDB version, in the
// sources in order: each a folder (holding the file itself, or wheels) or
// a wheel. notes collects why a source did not have it (a wheel for
// another DuckDB version), for the error when none has.
func findIn(sources []string, name, version string) (*found, []string, error) {
	var notes []string
	for _, src := range sources {
		st, err := os.Stat(src)
		if err != nil {
			return nil, nil, fmt.Errorf("extension source %s: %w (want a folder of .duckdb_extension files or wheels, or a .whl file)", src, err)
		}
		if !st.IsDir() {
			if !strings.HasSuffix(src, ".whl") {
				return nil, nil, fmt.Errorf("extension source %s is neither a folder nor a .whl wheel", src)
			}
			f, n, err := inWheel(src, name, version)
			if err != nil || f != nil {
				return f, nil, err
			}
			notes = append(notes, n...)
			continue
		}
		for _, fn := range fileNames(name) {
			p := filepath.Join(src, fn)
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
				return &found{desc: p, open: func() (io.ReadCloser, error) { return os.Open(p) }}, nil, nil
			}
		}
		wheels, _ := filepath.Glob(filepath.Join(src, "*.whl"))
		slices.Sort(wheels)
		for _, w := range wheels {
			f, n, err := inWheel(w, name, version)
			if err != nil || f != nil {
				return f, nil, err
			}
			notes = append(notes, n...)
		}
	}
	return nil, notes, nil
}

// inWheel finds extensions/<version>/<name>.duckdb_extension inside a
// wheel (a zip), whatever package folder holds it. An entry for another
// DuckDB version is reported in notes, not taken: DuckDB refuses to load it.
func inWheel(wheel, name, version string) (*found, []string, error) {
	zr, err := zip.OpenReader(wheel)
	if err != nil {
		return nil, nil, fmt.Errorf("wheel %s: %w", wheel, err)
	}
	defer zr.Close()
	var notes []string
	for _, e := range zr.File {
		dir, file := path.Split(e.Name)
		if !slices.Contains(fileNames(name), file) {
			continue
		}
		parts := strings.Split(strings.Trim(dir, "/"), "/")
		if len(parts) < 2 || parts[len(parts)-2] != "extensions" {
			continue
		}
		if v := parts[len(parts)-1]; v != version {
			notes = append(notes, fmt.Sprintf("%s holds %s for DuckDB %s, not %s", filepath.Base(wheel), file, v, version))
			continue
		}
		entry := e.Name
		return &found{
			desc: fmt.Sprintf("%s (%s)", wheel, entry),
			open: func() (io.ReadCloser, error) { return openZipEntry(wheel, entry) },
		}, nil, nil
	}
	return nil, notes, nil
}

// openZipEntry opens one entry of a zip; closing it closes the zip.
func openZipEntry(zipPath, entry string) (io.ReadCloser, error) {
	zr, err := zip.OpenReader(zipPath)
	if err != nil {
		return nil, err
	}
	f, err := zr.Open(entry)
	if err != nil {
		zr.Close()
		return nil, err
	}
	return entryReader{f, zr}, nil
}

type entryReader struct {
	io.ReadCloser
	zr *zip.ReadCloser
}

func (r entryReader) Close() error { return errors.Join(r.ReadCloser.Close(), r.zr.Close()) }
