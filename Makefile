# Strata. `make run` builds everything and starts the server on the demo
# project; `make test` runs every test. Both work on a fresh machine.
GO      ?= go
BIN     := bin/strata
DEMO    ?= demo
PKGS    := ./...

.PHONY: all build run test test-go test-race bench check fmt generate clean

all: build

# build: the strata binary at bin/strata
build:
	$(GO) build -o $(BIN) ./cmd/strata

# run: build, create the demo project if missing, and run it (see README)
run: build
	@test -d $(DEMO) || ./$(BIN) init $(DEMO) --demo
	./$(BIN) run $(DEMO) clv

# test: every test: vet, the Go suite, the race detector on the pure-Go packages
test: check test-go test-race

# test-go: the whole Go suite (real kernel processes, real DuckDB files)
test-go:
	$(GO) test -count=1 $(PKGS)

# test-race: concurrency-heavy packages under the race detector
test-race:
	$(GO) test -count=1 -race ./kernel/... ./blocks/... ./projects/partitions/...

# bench: every benchmark, summarized in artifacts/bench.txt
bench:
	@mkdir -p artifacts
	$(GO) test -run '^$$' -bench . -benchtime 2s $(PKGS) | tee artifacts/bench.txt
	@echo "report: artifacts/bench.txt"

# check: verify formatting and vet (changes nothing)
check:
	@out=$$(gofmt -l $$(git ls-files '*.go' | grep -v /testdata/)); \
	  if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)

# fmt: format the Go code
fmt:
	gofmt -w $$(git ls-files '*.go' | grep -v /testdata/)

# generate: re-extract the SDK symbols for the interpreter after changing blocks/sdk
generate:
	$(GO) generate ./kernel/interp

# clean: remove build outputs
clean:
	rm -rf bin artifacts
