package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"net"
	"os"
	"strings"
	"time"

	"github.com/stratahq/strata/frontend"
	"github.com/stratahq/strata/projects/notebook"
	"github.com/stratahq/strata/projects/scaffold"
	"github.com/stratahq/strata/projects/tracing"
	"github.com/stratahq/strata/server"
	"github.com/stratahq/strata/server/auth"
)

func init() {
	register("start", "serve the UI and HTTP API of a project (a new DIR becomes the demo project)", runStart)
}

func runStart(args []string) error {
	fs := flag.NewFlagSet("start", flag.ContinueOnError)
	addr := fs.String("addr", server.DefaultAddr, "address to listen on")
	token := fs.String("token", "", "API token (default: random, written to DIR/.strata/token)")
	noAuth := fs.Bool("no-auth", false, "serve without a token (loopback addresses only)")
	logFormat := fs.String("log-format", "text", "the server's log on stderr: text or json (one object per line)")
	var so scaleOut
	so.register(fs)
	var lf loginFlags
	lf.register(fs)
	otlp := fs.String("otlp-endpoint", "", "export traces over OTLP/HTTP to this URL, such as http://127.0.0.1:4318 (default: $"+tracing.EndpointEnv+"; off when both are empty)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: strata start [DIR] [flags]")
		fs.PrintDefaults()
	}
	flags, pos := interleaved(args, map[string]bool{"no-auth": true, "no-local": true})
	if err := fs.Parse(flags); err != nil {
		return err
	}
	if err := setLogFormat(*logFormat); err != nil {
		return err
	}
	stopTracing, err := tracing.Setup(context.Background(), tracing.Config{Endpoint: *otlp, Version: version})
	if err != nil {
		return fmt.Errorf("--otlp-endpoint: %w", err)
	}
	defer func() {
		// Send the last spans (a backfill that ended at the stop) before exiting.
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := stopTracing(ctx); err != nil {
			fmt.Fprintf(os.Stderr, "strata: flush traces: %v\n", err)
		}
	}()
	if len(pos) > 1 {
		fs.Usage()
		return exitError{2}
	}
	dir := "."
	if len(pos) == 1 {
		dir = pos[0]
	}
	if *noAuth && !server.IsLoopback(*addr) {
		return fmt.Errorf("--no-auth on %s refused: without a token anyone who reaches the address can run code; use a loopback address such as 127.0.0.1", *addr)
	}
	if err := so.check(); err != nil {
		return err
	}
	if created, err := initIfNew(dir); err != nil {
		return err
	} else if created {
		fmt.Fprintf(os.Stderr, "created the demo project in %s\n", dir)
	}

	tok := *token
	if !*noAuth && tok == "" {
		var err error
		if tok, err = server.NewToken(); err != nil {
			return err
		}
		if err := server.WriteTokenFile(dir, tok); err != nil {
			return fmt.Errorf("write token: %w", err)
		}
	}

	return withScaledWorkspace(dir, &so, func(ctx context.Context, ws *workspace) error {
		ws.StopRecording() // the server's trigger loop records and fires them
		ln, err := net.Listen("tcp", *addr)
		if err != nil {
			return err
		}
		notifier, err := openAlerts(ws, ln.Addr())
		if err != nil {
			ln.Close()
			return err
		}
		defer notifier.Close()
		if ws.cluster != nil {
			wctx, stopWatch := context.WithCancel(ctx)
			defer stopWatch()
			go watchWorkers(wctx, ws.cluster.Pool.Workers(), notifier)
		}
		users, err := auth.OpenStore(ws.proj.Dir)
		if err != nil {
			ln.Close()
			return err
		}
		browserLogin, err := openLogin(ctx, ws.proj, users, lf)
		if err != nil {
			ln.Close()
			return err
		}
		srv, err := server.New(server.Config{
			Users:        users,
			Login:        browserLogin,
			Alerts:       notifier,
			Engine:       ws.eng,
			Warehouse:    ws.wh,
			Pool:         ws.pool,
			ProjectDir:   ws.proj.Dir,
			TriggerClock: ws.clock,
			Notebook:     notebook.Config{Kernel: kernelConfig(ws.proj)},
			Token:        tok,
			NoAuth:       *noAuth,
			Addr:         ln.Addr().String(),
			UI:           frontend.FS(), // nil until the app is built: the server explains how
		})
		if err != nil {
			ln.Close()
			return err
		}
		if err := server.WriteLocal(ws.proj.Dir, server.Local{URL: strings.TrimSuffix(serverURL(ln.Addr(), ""), "/"), PID: os.Getpid(), Token: tok}); err != nil {
			ln.Close()
			return fmt.Errorf("write %s: %w", server.LocalFile(ws.proj.Dir), err)
		}
		defer server.RemoveLocal(ws.proj.Dir)
		fmt.Printf("Strata is serving %s\n\n    %s\n\n", ws.proj.Name, serverURL(ln.Addr(), tok))
		err = srv.Serve(ctx, ln, 10*time.Second)
		fmt.Fprintln(os.Stderr, "strata: stopped")
		return err
	})
}

// initIfNew creates the demo project when dir does not exist or is empty.
func initIfNew(dir string) (bool, error) {
	ents, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, err
	}
	if err == nil && len(ents) > 0 {
		return false, nil
	}
	return true, scaffold.Init(dir, true)
}

// serverURL is the address to open, Jupyter-style, with the token.
func serverURL(a net.Addr, token string) string {
	host, port, _ := net.SplitHostPort(a.String())
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	u := "http://" + net.JoinHostPort(host, port) + "/"
	if token != "" {
		u += "?token=" + token
	}
	return u
}
