# Strata. `make run` builds everything and starts the server on the demo
# project; `make test` runs every test. Both work on a fresh machine.
GO      ?= go
BIN     := bin/strata
DEMO    ?= demo
PKGS    := ./...

.PHONY: check-dist all build run test test-go test-race bench check fmt generate clean frontend test-frontend test-e2e soak soak-scaleout setup setup-system setup-gopls setup-extensions setup-seaweedfs setup-hydra setup-jaeger

all: build

# build: the strata binary at bin/strata, with the web UI embedded
build: frontend
	$(GO) build -o $(BIN) ./cmd/strata

# run: build everything and serve the demo project (created when missing) on 127.0.0.1:6789
run: build
	./$(BIN) start $(DEMO)

# test: every test: vet, the Go suite, the race detector on the concurrent packages, the frontend's unit and browser tests
test: setup check check-dist test-go test-race test-frontend test-e2e

# The DuckDB extensions the tests load, and where their wheels are cached.
DUCKDB_VERSION    := 1.5.5
DUCKDB_EXTENSIONS := ducklake postgres httpfs
WHEELS            := .cache/duckdb-wheels
PIP               ?= python3 -m pip
GOPLS_VERSION     := v0.23.0
SUDO              := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# setup: install what the tests need when it is missing (Chromium, Postgres, gopls, the DuckDB extension files, npm packages); quick when all is there
setup: setup-system setup-gopls setup-extensions setup-seaweedfs node_modules/.package-lock.json

# setup also builds the OpenID provider and the trace store the login and tracing tests run against
setup: setup-hydra setup-jaeger

# Tools built from the Go module proxy into $(TOOLS)/NAME-VERSION, once per version (skipped when present).
# Not `go install`: both go.mod files have replace directives, which go install refuses, so each is built as
# the main module from its downloaded source. Slow the first time (minutes each), instant afterwards.
TOOLS          := $(HOME)/.cache/strata/tools
HYDRA_VERSION  := v2.3.0
HYDRA          := $(TOOLS)/hydra-$(HYDRA_VERSION)/hydra
JAEGER_VERSION := v1.75.0
JAEGER         := $(TOOLS)/jaeger-$(JAEGER_VERSION)/jaeger

# setup-hydra: Ory Hydra (e2e/hydratest), with SQLite for DSN=memory; its replace of the client module by a
# folder the module zip leaves out is dropped for the published hydra-client-go it stands for
setup-hydra:
	@if [ ! -x "$(HYDRA)" ]; then \
	  src="$$(GOFLAGS= $(GO) mod download -json github.com/ory/hydra/v2@$(HYDRA_VERSION) | sed -n 's/^\t"Dir": "\(.*\)",$$/\1/p')"; \
	  test -n "$$src" || { echo "setup-hydra: go mod download found no source folder"; exit 1; }; \
	  work="$$(mktemp -d)" && cp -r "$$src/." "$$work" && chmod -R u+w "$$work" && cd "$$work" && \
	  sed -i '/^replace github.com\/ory\/hydra-client-go\/v2 => /d' go.mod && \
	  mkdir -p "$$(dirname "$(HYDRA)")" && \
	  GOFLAGS="-mod=mod -buildvcs=false" $(GO) build -trimpath -tags sqlite,sqlite_omit_load_extension -o "$(HYDRA).tmp" . && \
	  mv "$(HYDRA).tmp" "$(HYDRA)" && cd / && rm -rf "$$work"; \
	fi

# setup-jaeger: Jaeger all-in-one (e2e/jaegertest)
setup-jaeger:
	@if [ ! -x "$(JAEGER)" ]; then \
	  src="$$(GOFLAGS= $(GO) mod download -json github.com/jaegertracing/jaeger@$(JAEGER_VERSION) | sed -n 's/^\t"Dir": "\(.*\)",$$/\1/p')"; \
	  test -n "$$src" || { echo "setup-jaeger: go mod download found no source folder"; exit 1; }; \
	  mkdir -p "$$(dirname "$(JAEGER)")" && cd "$$src" && \
	  GOFLAGS=-buildvcs=false $(GO) build -trimpath -o "$(JAEGER).tmp" ./cmd/jaeger && mv "$(JAEGER).tmp" "$(JAEGER)"; \
	fi

# setup-system: Debian's chromium (the browser tests), postgresql (the throwaway Postgres of the tests), pip (the extension wheels) and Python's duckdb (the separate reader of a DuckLake in the lake tests)
setup-system:
	@if [ ! -x /usr/bin/chromium ]; then $(SUDO) apt-get update -q && $(SUDO) apt-get install -y -q --no-install-recommends chromium; fi
	@if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then $(SUDO) apt-get update -q && $(SUDO) apt-get install -y -q --no-install-recommends postgresql; fi
	@if ! python3 -m pip --version >/dev/null 2>&1; then $(SUDO) apt-get update -q && $(SUDO) apt-get install -y -q --no-install-recommends python3-pip; fi
	@if ! python3 -c 'import duckdb' >/dev/null 2>&1; then $(PIP) install -q duckdb==$(DUCKDB_VERSION) || $(PIP) install -q --break-system-packages duckdb==$(DUCKDB_VERSION); fi

# setup-gopls: gopls, pinned (the newest that builds on Go 1.26), where Strata looks for it: $(go env GOPATH)/bin
setup-gopls:
	@gopls="$$($(GO) env GOPATH)/bin/gopls"; \
	  if ! "$$gopls" version 2>/dev/null | grep -q " $(GOPLS_VERSION)$$"; then GOFLAGS= $(GO) install golang.org/x/tools/gopls@$(GOPLS_VERSION); fi

# setup-seaweedfs: the S3-compatible server of the tests (e2e/s3test), SeaweedFS's weed, built from the Go module proxy
# into $(WEED) once per version. Not `go install`: its go.mod has replace directives, which go install refuses, so
# it is built as the main module in its module-cache folder. Slow the first time (minutes), skipped when present.
WEED_VERSION := v0.0.0-20261109003541-7506e5f91cd6
WEED         := $(HOME)/.cache/strata/tools/seaweedfs-$(WEED_VERSION)/weed
setup-seaweedfs:
	@if [ ! -x "$(WEED)" ]; then \
	  src="$$(GOFLAGS= $(GO) mod download -json github.com/seaweedfs/seaweedfs@$(WEED_VERSION) | sed -n 's/^\t"Dir": "\(.*\)",$$/\1/p')"; \
	  test -n "$$src" || { echo "setup-seaweedfs: go mod download found no source folder"; exit 1; }; \
	  mkdir -p "$$(dirname "$(WEED)")" && cd "$$src" && GOFLAGS=-buildvcs=false $(GO) build -trimpath -o "$(WEED).tmp" ./weed && mv "$(WEED).tmp" "$(WEED)"; \
	fi

# setup-extensions: the DuckDB extension wheels from PyPI (cached in .cache/duckdb-wheels), installed into DuckDB's extension folder
setup-extensions: $(WHEELS)/.v$(DUCKDB_VERSION)
	@$(GO) run ./cmd/strata extensions install $(addprefix --name ,$(DUCKDB_EXTENSIONS)) --from $(WHEELS)

$(WHEELS)/.v$(DUCKDB_VERSION):
	$(PIP) download --no-deps --disable-pip-version-check -q -d $(WHEELS) $(foreach e,$(DUCKDB_EXTENSIONS),duckdb-extension-$(e)==$(DUCKDB_VERSION))
	@touch $@

# test-go: the whole Go suite (real kernel processes, real DuckDB files, Postgres, SeaweedFS); 10 m a package: e2e/sources starts S3 servers and builds a kernel with the AWS SDK, ~4 m under load
test-go:
	$(GO) test -count=1 -timeout 10m $(PKGS)

# test-race: concurrency-heavy packages under the race detector
test-race:
	$(GO) test -count=1 -timeout 10m -race -short ./kernel/... ./blocks/... ./projects/partitions/... ./projects/engine/... ./server/...

# soak: the fault-injection soak: STRATA_SOAK_TRIALS (default 40) kill -9 trials of demo backfills, and as many promote-race and takeover scenarios; the seed is printed, STRATA_SOAK_SEED replays it
soak:
	STRATA_SOAK_TRIALS=$${STRATA_SOAK_TRIALS:-40} $(GO) test -count=1 -timeout 0 -run '^(TestFaultSoak|TestScenarioSoak)$$' -v ./e2e/faults/

# soak-scaleout: the scale-out failure tests through the real binary, the NATS cluster leader change included
soak-scaleout:
	STRATA_SOAK_SCALEOUT=1 $(GO) test -count=1 -timeout 0 -run '^TestScaleOut' -v ./e2e/faults/

# frontend: build the web UI into frontend/dist (npm ci first when node_modules is missing or stale)
frontend: frontend/dist/index.html

FRONTEND_SRC := $(shell find frontend/src -type f 2>/dev/null) frontend/index.html package.json vite.config.ts tsconfig.json

frontend/dist/index.html: node_modules/.package-lock.json $(FRONTEND_SRC)
	npm run build

# node_modules: installed exactly from package-lock.json
node_modules/.package-lock.json: package-lock.json package.json
	npm ci --no-audit --no-fund
	@touch $@

# check-dist: the committed frontend/dist is exactly what the sources build
# to, so `go build ./cmd/strata` (and go install) serves the current UI.
# After changing frontend/src, run `npm run build` and commit frontend/dist.
check-dist: node_modules/.package-lock.json
	@out=$$(mktemp -d); trap 'rm -rf "$$out"' EXIT; \
	  STRATA_DIST_OUT="$$out" npm run build >/dev/null 2>&1 || { echo "check-dist: the frontend does not build: npm run build"; exit 1; }; \
	  if ! diff -r frontend/dist "$$out" >/dev/null; then \
	    echo "check-dist: frontend/dist is not what frontend/src builds to; run npm run build and commit frontend/dist:"; \
	    diff -rq frontend/dist "$$out"; exit 1; fi; \
	  echo "check-dist: frontend/dist matches a fresh build"

# test-frontend: the frontend's unit tests (Vitest)
test-frontend: node_modules/.package-lock.json
	npm test

# test-e2e: browser tests (Playwright in Debian's Chromium) against bin/strata on a fresh demo project
test-e2e: build
	npm run e2e

# bench: every benchmark (Go, then the browser's), summarized in artifacts/bench.txt
bench: build
	@mkdir -p artifacts
	STRATA_BENCH_WS_DURATION=30s $(GO) test -timeout 30m -run '^$$' -bench . -benchtime 2s $(PKGS) | tee artifacts/bench.txt
	@# issue 31: the 5-year demo backfill with compiled workers (target <= 15 s)
	STRATA_BENCH_DAYS=1827 STRATA_BENCH_ENGINE=compiled $(GO) test -timeout 30m -run '^$$' -bench 'BenchmarkDemoBackfill$$' -benchtime 1x ./projects/engine | tee -a artifacts/bench.txt
	npm run bench
	@{ echo; echo "# frontend (npm run bench)"; cat artifacts/frontend-bench.txt; } >> artifacts/bench.txt
	@echo "report: artifacts/bench.txt"

# check: verify formatting, vet and staticcheck (changes nothing)
check:
	@out=$$(gofmt -l $$(git ls-files '*.go' | grep -v /testdata/)); \
	  if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)
	$(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2 $(PKGS)

# fmt: format the Go code
fmt:
	gofmt -w $$(git ls-files '*.go' | grep -v /testdata/)

# generate: re-extract the SDK symbols for the interpreter after changing blocks/sdk
generate:
	$(GO) generate ./kernel/interp

# clean: remove build outputs
clean:
	rm -rf bin artifacts
