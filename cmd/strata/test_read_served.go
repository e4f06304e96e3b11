package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/stratahq/strata/blocks/sdk/sdktest"
	"github.com/stratahq/strata/server"
)

// readServedVersion reads one stored version through the API of the
// `strata start` (pid) that holds the project's warehouse, found in its
// .strata/server.json, and prints it in sdktest's wire as the file read
// does. The answer is checked to be that wire (ReadJSON) and written again,
// so what FromVersion reads is the same bytes either way.
func readServedVersion(dir string, pid int, product, partition string, version int) error {
	l, err := server.ReadLocal(dir)
	if errors.Is(err, os.ErrNotExist) || (err == nil && l.PID != pid) {
		return fmt.Errorf("pid %d holds the warehouse of %s and is not a `strata start` this project records in %s: "+
			"stop it, or read the version once it is done", pid, dir, server.LocalFile(dir))
	}
	if err != nil {
		return err
	}
	q := url.Values{"partition": {partition}, "version": {strconv.Itoa(version)}}
	u := l.URL + "/api/v1/products/" + url.PathEscape(product) + "/rows?" + q.Encode()
	ctx, stop := signalContext()
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	if l.Token != "" {
		req.Header.Set("Authorization", "Bearer "+l.Token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("pid %d holds the warehouse; reading through its API at %s failed: %w", pid, l.URL, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("the server (pid %d, %s) answered %s: %s", pid, l.URL, resp.Status, apiMessage(resp.Body))
	}
	t, err := sdktest.ReadJSON(resp.Body)
	if err != nil {
		return fmt.Errorf("the server (pid %d, %s) answered rows that do not read: %w", pid, l.URL, err)
	}
	return sdktest.WriteJSON(os.Stdout, t)
}

// apiMessage is an API error's message, else the body's first bytes.
func apiMessage(r io.Reader) string {
	b, _ := io.ReadAll(io.LimitReader(r, 4096))
	var e struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
		Message string `json:"message"`
	}
	if json.Unmarshal(b, &e) == nil {
		if e.Error.Message != "" {
			return e.Error.Message
		}
		if e.Message != "" {
			return e.Message
		}
	}
	return strings.TrimSpace(string(b))
}
