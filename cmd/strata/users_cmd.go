package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/stratahq/strata/projects/audit"
	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/server/auth"
)

func init() {
	register("users", "add, list or revoke the people who may use a server, each with a token and a role", runUsers)
	register("audit", "list who launched, promoted, rolled back, saved or changed what", runAudit)
}

const usersUsage = `usage:
  strata users add NAME --role viewer|editor|operator|admin [--dir DIR]
  strata users list [--dir DIR] [--format table|json]
  strata users revoke NAME [--dir DIR]`

// projectDir checks that dir holds a project, so a user is never added to
// a folder `strata start` will not serve.
func projectDir(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Join(abs, project.ProjectFile)); err != nil {
		return "", fmt.Errorf("%s is not a Strata project (no %s): pass --dir with the project's folder", abs, project.ProjectFile)
	}
	return abs, nil
}

// cliActor is who runs the CLI: the operating system's user, since anyone
// who can run it here can also read the project's files.
func cliActor() string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	if n := os.Getenv("USER"); n != "" {
		return n
	}
	return "cli"
}

// cliAudit records an action done through the CLI; a failure to record is
// a warning, the action has happened.
func cliAudit(dir string, e audit.Entry) {
	if e.Actor == "" {
		e.Actor = cliActor()
	}
	e.Via = "cli"
	if _, err := audit.Open(dir).Record(e); err != nil {
		fmt.Fprintln(os.Stderr, "warning: audit trail:", err)
	}
}

func runUsers(args []string) error {
	if len(args) == 0 {
		return errors.New(usersUsage)
	}
	sub := args[0]
	fs := flag.NewFlagSet("users "+sub, flag.ContinueOnError)
	dir := fs.String("dir", ".", "the project's folder")
	roleName := fs.String("role", "", "viewer, editor, operator or admin")
	format := fs.String("format", "table", "table or json")
	flags, pos := interleaved(args[1:], nil)
	if err := fs.Parse(flags); err != nil {
		return err
	}
	abs, err := projectDir(*dir)
	if err != nil {
		return err
	}
	store, err := auth.OpenStore(abs)
	if err != nil {
		return err
	}
	switch sub {
	case "add":
		if len(pos) != 1 || *roleName == "" {
			return errors.New(usersUsage)
		}
		role, err := auth.ParseRole(*roleName)
		if err != nil {
			return err
		}
		u, tok, err := store.Add(pos[0], role, cliActor())
		if err != nil {
			return err
		}
		cliAudit(abs, audit.Entry{Action: audit.ActionUserAdd, Target: u.Name + " (" + u.Role.String() + ")"})
		fmt.Fprintf(os.Stderr, "added %s (%s). Its token, shown this once (Strata keeps only its hash):\n", u.Name, u.Role)
		fmt.Println(tok)
		return nil
	case "list":
		if len(pos) != 0 {
			return errors.New(usersUsage)
		}
		users, err := store.List()
		if err != nil {
			return err
		}
		if *format == "json" {
			return printJSON(users)
		}
		tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "NAME\tROLE\tCREATED\tBY\tSTATE")
		for _, u := range users {
			state := "active"
			if !u.Active() {
				state = "revoked " + u.RevokedAt.Local().Format(time.DateTime) + " by " + u.RevokedBy
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", u.Name, u.Role, u.CreatedAt.Local().Format(time.DateTime), u.CreatedBy, state)
		}
		return tw.Flush()
	case "revoke":
		if len(pos) != 1 {
			return errors.New(usersUsage)
		}
		u, err := store.Revoke(pos[0], cliActor())
		if err != nil {
			return err
		}
		cliAudit(abs, audit.Entry{Action: audit.ActionUserRevoke, Target: u.Name})
		fmt.Printf("revoked %s: its token is refused from its next request on\n", u.Name)
		return nil
	}
	return fmt.Errorf("users %q: want add, list or revoke\n%s", sub, usersUsage)
}

func runAudit(args []string) error {
	fs := flag.NewFlagSet("audit", flag.ContinueOnError)
	actor := fs.String("actor", "", "only this user's actions")
	action := fs.String("action", "", "only this action, or a family (backfill matches backfill.promote)")
	since := fs.String("since", "", "only actions at or after this time (RFC 3339, a date, or a duration back such as 24h)")
	limit := fs.Int("limit", 200, "newest actions shown")
	format := fs.String("format", "table", "table or json")
	flags, pos := interleaved(args, nil)
	if err := fs.Parse(flags); err != nil {
		return err
	}
	if len(pos) > 1 {
		return errors.New("usage: strata audit [DIR] [--actor NAME] [--action A] [--since T] [--limit N] [--format table|json]")
	}
	dir := "."
	if len(pos) == 1 {
		dir = pos[0]
	}
	abs, err := projectDir(dir)
	if err != nil {
		return err
	}
	f := audit.Filter{Actor: *actor, Action: *action, Limit: *limit}
	if *since != "" {
		if f.Since, err = audit.ParseSince(*since, time.Now()); err != nil {
			return fmt.Errorf("--since %q: %w", *since, err)
		}
	}
	entries, err := audit.Open(abs).List(f)
	if err != nil {
		return err
	}
	if *format == "json" {
		return printJSON(entries)
	}
	tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "AT\tACTOR\tACTION\tPIPELINE\tTARGET\tVIA")
	for _, e := range entries {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", e.At.Local().Format(time.DateTime), e.Actor, e.Action,
			dash(e.Pipeline), dash(strings.TrimSpace(e.Target+" "+e.Detail)), e.Via)
	}
	return tw.Flush()
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
