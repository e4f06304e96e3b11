package server

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/stratahq/strata/projects/alerts"
	"github.com/stratahq/strata/projects/audit"
	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/projects/envs"
	"github.com/stratahq/strata/projects/notebook"
	"github.com/stratahq/strata/projects/replay"
	"github.com/stratahq/strata/projects/triggers/launcher"
	"github.com/stratahq/strata/projects/warehouse"
	"github.com/stratahq/strata/projects/watch"
	"github.com/stratahq/strata/server/auth"
	"github.com/stratahq/strata/server/login"
)

// Defaults of Config.
const (
	DefaultAddr        = "127.0.0.1:6789"
	DefaultBodyLimit   = 8 << 20 // 8 MiB: a pipeline file or a block's source, with room to spare
	DefaultWSReadLimit = 1 << 20 // 1 MiB per websocket message
	DefaultSessionIdle = 10 * time.Minute
	DefaultMaxSessions = 64
)

// Config is what a Server needs: the project's engine and warehouse (opened
// by the caller, which also closes them after Shutdown), how to start the
// editor sessions' kernels, and the token.
type Config struct {
	Engine    *engine.Engine
	Warehouse *warehouse.Warehouse
	// Pool is the engine's kernel pool, read for /metrics only; nil leaves
	// its gauges out. The caller (cmd/strata) builds it.
	Pool PoolStats
	// Notebook configures the editor sessions; its Kernel (how to start a
	// session's own kernel) is required. The server sets Engine, Logger and
	// OnExec itself, and MaxSessions and Idle from the fields below.
	Notebook notebook.Config
	// ProjectDir is the project folder, where pipeline and block files are written.
	ProjectDir string
	// TriggerClock drives the trigger loop; the wall clock when nil.
	TriggerClock launcher.Clock
	// NoTriggers serves without running triggers (the API still lists them).
	NoTriggers bool

	// Token every API call and the websocket must present. Empty only with NoAuth.
	// Its holder is the admin of a one-person install (auth.Owner).
	Token string
	// Users are the project's named users; opened from ProjectDir when nil.
	Users *auth.Store
	// Audit is the project's audit trail; opened in ProjectDir when nil.
	Audit *audit.Log
	// Alerts, when set, hears of the engine's failures while the server runs.
	Alerts *alerts.Notifier
	// Login, when set, lets browsers log in through an OpenID provider
	// (/auth/login); tokens keep working beside it.
	Login *login.Login
	// NoAuth serves without a token; New refuses it unless Addr is loopback.
	NoAuth bool
	// Addr is the address the server listens on; it decides whether NoAuth is allowed.
	Addr string

	// UI is the built frontend (the contents of frontend/dist). Nil serves a
	// page saying the UI is not built and how to call the API.
	UI fs.FS

	BodyLimit   int64         // request body limit; DefaultBodyLimit when 0
	WSReadLimit int64         // websocket message limit; DefaultWSReadLimit when 0
	SessionIdle time.Duration // reap a session this long without a connection; DefaultSessionIdle when 0
	MaxSessions int           // editor sessions (each one kernel process); DefaultMaxSessions when 0
	// NoWatch turns off watching ProjectDir for changes made outside the server.
	NoWatch bool
	Logger  *slog.Logger // slog.Default() when nil
}

// PoolStats is what /metrics reads of the engine's kernel pool.
type PoolStats interface {
	Size() int                  // the most block runs at once
	Stats() (running, idle int) // kernel processes started, and those of them waiting for work
}

// Server is Strata's HTTP server. It is an http.Handler; Serve runs it on a
// listener until its context ends, then shuts down gracefully.
type Server struct {
	cfg      Config
	eng      *engine.Engine
	wh       *warehouse.Warehouse
	log      *slog.Logger
	echo     *echo.Echo
	sessions *notebook.Manager
	hub      *wsHub
	lsp      *lspBridge // the project's gopls, for the editor's Go cells
	metrics  *metrics
	triggers *launcher.Loop
	// triggersStop ends the trigger loop before the engine shuts down, so no
	// queued tick launches into a stopping engine.
	triggersStop context.CancelFunc
	triggersDone chan struct{}
	files        sync.Mutex // serializes writes of project files and the reload that follows
	watcher      *watch.Watcher
	users        *auth.Store
	audit        *audit.Log
	// registered is every "METHOD path" of the router, for authorize.
	registered map[string]bool

	// ctx is cancelled at shutdown; background runs and executions use it.
	ctx    context.Context
	cancel context.CancelFunc
	runs   sync.WaitGroup // runs started by POST /pipelines/:id/runs
	// replays started by POST /pipelines/:id/replays, with their reports.
	replays *replay.Jobs
	// alertsDone closes when the alert feed stops (after s.ctx ends).
	alertsDone chan struct{}

	closeOnce sync.Once
}

// New builds a server. It starts the goroutines that follow engine events
// (for /metrics and websocket subscriptions) and reap idle editor sessions;
// Shutdown stops them.
func New(cfg Config) (*Server, error) {
	if cfg.Engine == nil || cfg.Warehouse == nil {
		return nil, errors.New("server: Engine and Warehouse are required")
	}
	if cfg.Addr == "" {
		cfg.Addr = DefaultAddr
	}
	if cfg.NoAuth {
		if !IsLoopback(cfg.Addr) {
			return nil, fmt.Errorf("server: --no-auth is only allowed on a loopback address, not %s: anyone who can reach it could run code", cfg.Addr)
		}
	} else if len(cfg.Token) < 16 {
		return nil, errors.New("server: a token of at least 16 characters is required (or NoAuth on loopback)")
	}
	if cfg.ProjectDir == "" {
		cfg.ProjectDir = cfg.Engine.Project().Dir
	}
	if cfg.BodyLimit <= 0 {
		cfg.BodyLimit = DefaultBodyLimit
	}
	if cfg.WSReadLimit <= 0 {
		cfg.WSReadLimit = DefaultWSReadLimit
	}
	if cfg.SessionIdle <= 0 {
		cfg.SessionIdle = DefaultSessionIdle
	}
	if cfg.MaxSessions <= 0 {
		cfg.MaxSessions = DefaultMaxSessions
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Users == nil {
		u, err := auth.OpenStore(cfg.ProjectDir)
		if err != nil {
			return nil, err
		}
		cfg.Users = u
	}
	if cfg.Audit == nil {
		cfg.Audit = audit.Open(cfg.ProjectDir)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{cfg: cfg, eng: cfg.Engine, wh: cfg.Warehouse, log: cfg.Logger, ctx: ctx, cancel: cancel,
		users: cfg.Users, audit: cfg.Audit}
	loop, err := launcher.New(ctx, launcher.Config{Engine: cfg.Engine, Warehouse: cfg.Warehouse, Clock: cfg.TriggerClock, Logger: cfg.Logger,
		Into: envs.New(cfg.Warehouse, cfg.Engine).TriggerOwners})
	if err != nil {
		cancel()
		return nil, err
	}
	s.triggers = loop
	s.replays = replay.NewJobs(cfg.Engine, 20)
	s.metrics = newMetrics(cfg.Engine.Hub())
	nb := cfg.Notebook
	nb.Engine, nb.MaxSessions, nb.Idle, nb.Logger, nb.OnExec = cfg.Engine, cfg.MaxSessions, cfg.SessionIdle, cfg.Logger, s.metrics.exec
	if s.sessions, err = notebook.NewManager(nb); err != nil {
		cancel()
		return nil, err
	}
	s.hub = newWSHub(s)
	s.lsp = newLSPBridge(s)
	s.echo = s.routes()
	s.followAlerts()
	if !cfg.NoWatch {
		if s.watcher, err = watch.Start(cfg.ProjectDir, 0, s.filesChanged); err != nil {
			// Without a watcher the server still works; edits elsewhere need a restart.
			s.log.Warn("watch the project folder for changes", "dir", cfg.ProjectDir, "err", err)
		}
	}
	return s, nil
}

// routes wires middleware and handlers. Pre middleware runs before routing,
// so an unknown route without a token is a 401, not a 404 that would tell a
// stranger which routes exist.
func (s *Server) routes() *echo.Echo {
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.HTTPErrorHandler = s.errorHandler
	e.Pre(s.traceRequests, s.recoverPanics, s.securityHeaders, s.authenticate, s.rejectDotDot, s.limitBody)
	e.Use(s.authorize) // after routing: roles are per route (auth.Routes)

	e.GET("/healthz", s.healthz)
	e.GET("/metrics", s.serveMetrics)

	api := e.Group("/api/v1")
	s.pipelineRoutes(api)
	s.blockRoutes(api)
	s.structureRoutes(api)
	s.cellRoutes(api)
	s.projectRoutes(api)
	s.runRoutes(api)
	s.replayRoutes(api)
	s.backfillRoutes(api)
	s.productRoutes(api)
	s.tableRoutes(api)
	s.outputRoutes(api)
	s.reviewRoutes(api)
	s.envRoutes(api)
	s.triggerRoutes(api)
	s.triggerFormRoutes(api)
	api.GET("/ws", s.hub.serveWS)
	s.lspRoutes(api)
	s.peopleRoutes(api)
	s.alertRoutes(api)
	s.loginRoutes(e)

	e.GET("/*", s.serveStatic)
	e.HEAD("/*", s.serveStatic)
	s.registered = registeredRoutes(e)
	return e
}

// followAlerts feeds the engine's notices to the alert notifier, if any,
// until the server shuts down.
func (s *Server) followAlerts() {
	if s.cfg.Alerts == nil || s.alertsDone != nil {
		return
	}
	s.alertsDone = make(chan struct{})
	go func() {
		defer close(s.alertsDone)
		alerts.Follow(s.ctx, s.eng, s.cfg.Alerts)
	}()
}

// ServeHTTP makes the server an http.Handler (httptest.NewServer in tests).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.echo.ServeHTTP(w, r) }

// Serve runs the server on ln until ctx ends, then shuts down: it stops
// accepting, closes websockets, checkpoints in-flight backfills and closes
// the sessions' kernels, allowing up to grace for in-flight requests. It
// first resumes the backfills that a crash or an earlier shutdown interrupted.
func (s *Server) Serve(ctx context.Context, ln net.Listener, grace time.Duration) error {
	if err := s.recoverBackfills(ctx); err != nil {
		s.log.Error("resume interrupted backfills", "err", err)
	}
	// Triggers start after the backfills resumed, so a tick's backfill that
	// a crash interrupted is resumed by the engine once, not twice.
	s.startTriggers()
	// The backfill pages' statuses, aggregated over every cell once now
	// rather than at the first page load.
	s.runs.Add(1)
	go func() {
		defer s.runs.Done()
		s.eng.WarmStatuses(s.ctx)
	}()
	hs := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		BaseContext:       func(net.Listener) context.Context { return s.ctx },
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelDebug),
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		s.Shutdown(context.Background())
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	// Stop accepting first; websockets are hijacked, so Shutdown does not
	// wait for them, and the server closes them itself below.
	stopped := make(chan error, 1)
	go func() { stopped <- hs.Shutdown(sctx) }()
	s.Shutdown(sctx)
	if err := <-stopped; err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}

// Shutdown closes websockets, cancels background runs, lets the engine
// checkpoint in-flight backfills and closes every editor session's kernel.
// The caller closes the engine, pool and warehouse afterwards. Safe to call
// more than once.
func (s *Server) Shutdown(ctx context.Context) {
	s.closeOnce.Do(func() {
		if s.watcher != nil {
			s.watcher.Close()
		}
		s.hub.closeAll()
		s.lsp.close()
		s.stopTriggers(ctx)
		s.shutdownEngine(ctx)
		s.cancel()
		done := make(chan struct{})
		go func() { s.runs.Wait(); s.replays.Wait(); close(done) }()
		select {
		case <-done:
		case <-ctx.Done():
		}
		if s.alertsDone != nil {
			<-s.alertsDone
		}
		s.sessions.Close()
		s.hub.wait()
		s.metrics.close()
	})
}

// healthz is unauthenticated: it says whether the process answers and can
// still keep what it writes (its warehouse file is the one it opened).
func (s *Server) healthz(c echo.Context) error {
	if s.ctx.Err() != nil {
		return apiErr(http.StatusServiceUnavailable, CodeUnavailable, "shutting down")
	}
	if err := s.wh.Healthy(); err != nil {
		return apiErr(http.StatusServiceUnavailable, CodeUnavailable, "%s", err.Error())
	}
	return c.JSON(http.StatusOK, map[string]string{"status": "ok"})
}

// recoverPanics turns a handler panic into a 500 in the error shape.
func (s *Server) recoverPanics(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) (err error) {
		defer func() {
			if r := recover(); r != nil {
				if r == http.ErrAbortHandler {
					panic(r)
				}
				s.log.Error("handler panic", "path", c.Request().URL.Path, "panic", r)
				err = apiErr(http.StatusInternalServerError, CodeInternal, "internal error: %v", r)
			}
		}()
		return next(c)
	}
}

// securityHeaders: the API is not meant to be framed, sniffed or cached, and
// a first visit's ?token= must not leak through Referer.
func (s *Server) securityHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		if isAPIPath(c.Request().URL.Path) {
			h.Set("Cache-Control", "no-store")
		}
		return next(c)
	}
}

func isAPIPath(p string) bool {
	return p == "/api" || len(p) >= 5 && p[:5] == "/api/" || p == "/metrics"
}
