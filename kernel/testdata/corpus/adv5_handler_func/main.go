package main

import (
	"fmt"
	"sort"
	"strings"
)

type Request struct {
	Path   string
	Header map[string]string
}

type Handler interface {
	Serve(r *Request) string
}

type HandlerFunc func(r *Request) string

func (f HandlerFunc) Serve(r *Request) string { return f(r) }

type Mux struct {
	routes map[string]Handler
}

func (m *Mux) Handle(p string, h Handler) {
	if m.routes == nil {
		m.routes = map[string]Handler{}
	}
	m.routes[p] = h
}

func (m *Mux) HandleFunc(p string, f func(*Request) string) { m.Handle(p, HandlerFunc(f)) }

func (m *Mux) Serve(r *Request) string {
	best := ""
	for p := range m.routes {
		if strings.HasPrefix(r.Path, p) && len(p) > len(best) {
			best = p
		}
	}
	if best == "" {
		return "404 " + r.Path
	}
	return m.routes[best].Serve(r)
}

type Middleware func(Handler) Handler

func Logging(log *[]string) Middleware {
	return func(next Handler) Handler {
		return HandlerFunc(func(r *Request) string {
			*log = append(*log, "enter "+r.Path)
			defer func() { *log = append(*log, "leave "+r.Path) }()
			return next.Serve(r)
		})
	}
}

func Auth(token string) Middleware {
	return func(next Handler) Handler {
		return HandlerFunc(func(r *Request) string {
			if r.Header["token"] != token {
				return "401"
			}
			return next.Serve(r)
		})
	}
}

func Chain(h Handler, ms ...Middleware) Handler {
	for i := len(ms) - 1; i >= 0; i-- {
		h = ms[i](h)
	}
	return h
}

type static string

func (s static) Serve(*Request) string { return "200 " + string(s) }

func main() {
	var log []string
	mux := &Mux{}
	mux.Handle("/", static("home"))
	mux.HandleFunc("/users/", func(r *Request) string {
		return "200 user " + strings.TrimPrefix(r.Path, "/users/")
	})
	mux.Handle("/admin", Chain(static("admin"), Auth("s3cret")))
	app := Chain(mux, Logging(&log))
	reqs := []*Request{
		{Path: "/"},
		{Path: "/users/ann"},
		{Path: "/admin", Header: map[string]string{"token": "nope"}},
		{Path: "/admin/x", Header: map[string]string{"token": "s3cret"}},
	}
	for _, r := range reqs {
		fmt.Printf("%-10s -> %s\n", r.Path, app.Serve(r))
	}
	fmt.Println(strings.Join(log, "; "))
	var paths []string
	for p := range mux.routes {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	fmt.Println(paths)
}
