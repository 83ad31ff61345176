# fawn — the two commands a newcomer needs are `make run` and `make test`.

SHELL   := /bin/bash
GO      ?= go
DIR     ?= .
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -s -w -X main.version=$(VERSION)
PKGS    := ./... github.com/bytedance/sonic github.com/bytedance/sonic/ast github.com/nikolalohinski/gonja/... github.com/gdamore/tcell/v2 github.com/gdamore/tcell/v2/terminfo
# Tested, not vetted: chroma's lexers are written in unkeyed struct literals.
TESTPKGS := $(PKGS) github.com/alecthomas/chroma/v2/lexers

.PHONY: build run test test-short bench fuzz lint clean

# CGO_ENABLED=0: only net's resolver and os/user would use cgo, and a
# static binary starts without the dynamic loader (~1 ms) and builds faster.
build:
	@mkdir -p bin
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o bin/fawn ./cmd/fawn

run: build
	./bin/fawn $(DIR)

# Everything CI runs: the lint checks, then every test with the race detector.
# The end-to-end tests (package e2e) drive bin/fawn in tmux; without tmux they
# skip and say so. internal/testsum prints go test's usual lines and, last,
# one line naming every test that skipped and why.
test: lint build
	set -o pipefail; $(GO) test -race -count=1 -timeout 9m -json $(TESTPKGS) | $(GO) run ./internal/testsum

test-short:
	set -o pipefail; $(GO) test -race -short -json $(TESTPKGS) | $(GO) run ./internal/testsum

# Long measurements: Go benchmarks plus the comparisons against other tools
# (vim, micro, tmux, a bare pty, headless fawn, each measured in the same
# run). internal/benchsum ends the run with one table of fawn's figures, the
# references, the ratios and the goals, also written to bin/bench-summary.md.
bench: build
	set -o pipefail; $(GO) test -run '^$$' -bench . -benchmem -benchtime 3x -timeout 40m $(PKGS) | $(GO) run ./internal/benchsum -o bin/bench-summary.md

# Fuzzes the terminal emulator with fawn's screen around it (make test runs
# only the seeds): no panic, and work and allocations bounded per byte.
# Minimizing a new input is cut to 10s: it is what a run spends most on.
FUZZTIME ?= 2m
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzScreen$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 10s ./terminal

VULNDB ?= https://vuln.go.dev
GOVULNCHECK ?= v1.9.0

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)
	@# go.mod and go.sum must be what go mod tidy makes of the imports.
	@$(GO) mod tidy -diff || { echo "go.mod or go.sum is not tidy: run go mod tidy and commit the result"; exit 1; }
	@# Known vulnerabilities in what fawn links, when the vulnerability
	@# database can be reached (a machine offline says so and goes on).
	@if curl -sf --max-time 5 -o /dev/null $(VULNDB)/index/db.json.gz; then \
		$(GO) run golang.org/x/vuln/cmd/govulncheck@$(GOVULNCHECK) ./...; \
	else echo "govulncheck skipped: $(VULNDB) cannot be reached from this machine"; fi

clean:
	rm -rf bin
