# fawn — the two commands a newcomer needs are `make run` and `make test`.

SHELL   := /bin/bash
GO      ?= go
DIR     ?= .
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -s -w -X main.version=$(VERSION)
PKGS    := ./... github.com/bytedance/sonic github.com/bytedance/sonic/ast github.com/nikolalohinski/gonja/...
TESTPKGS := $(PKGS)

.PHONY: build run install release test test-short bench fuzz lint clean

# CGO_ENABLED=0: only net's resolver and os/user would use cgo, and a
# static binary starts without the dynamic loader (~1 ms) and builds faster.
build:
	@mkdir -p bin
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o bin/fawn ./cmd/fawn

run: build
	./bin/fawn $(DIR)

# make install puts fawn in $GOBIN when Go has one, else in ~/.local/bin;
# PREFIX=/usr/local puts it in /usr/local/bin, BINDIR=DIR anywhere, and
# DESTDIR stages it for a package (DESTDIR=/tmp/pkg PREFIX=/usr). The
# binary is built beside its place and renamed into it, so a fawn that is
# running keeps its file.
GOBIN_DIR := $(shell $(GO) env GOBIN 2>/dev/null)
ifeq ($(origin PREFIX),undefined)
PREFIX  := $(HOME)/.local
BINDIR  ?= $(if $(GOBIN_DIR),$(GOBIN_DIR),$(PREFIX)/bin)
else
BINDIR  ?= $(PREFIX)/bin
endif
install:
	@mkdir -p '$(DESTDIR)$(BINDIR)'
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o '$(DESTDIR)$(BINDIR)/.fawn.new' ./cmd/fawn
	mv -f '$(DESTDIR)$(BINDIR)/.fawn.new' '$(DESTDIR)$(BINDIR)/fawn'
	@echo "installed fawn $(VERSION) in $(DESTDIR)$(BINDIR)"
	@case ":$$PATH:" in *":$(BINDIR):"*) ;; *) [ -n '$(DESTDIR)' ] || echo "note: $(BINDIR) is not on your PATH";; esac

# make release builds fawn for linux and darwin on amd64 and arm64 into
# DIST: fawn-VERSION-OS-ARCH.tar.gz (the binary, README.md and
# config.example.yaml) and SHA256SUMS. Only fawn's own archives there are
# replaced.
DIST      ?= dist
PLATFORMS ?= linux/amd64 linux/arm64 darwin/amd64 darwin/arm64
release:
	@set -euo pipefail; mkdir -p '$(DIST)'; rm -f '$(DIST)'/fawn-*.tar.gz '$(DIST)/SHA256SUMS'; \
	stage=$$(mktemp -d); trap 'rm -rf "$$stage"' EXIT; \
	for p in $(PLATFORMS); do \
	  os=$${p%/*}; arch=$${p#*/}; name=fawn-$(VERSION)-$$os-$$arch; \
	  echo "release: $$name"; mkdir -p "$$stage/$$name"; \
	  CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o "$$stage/$$name/fawn" ./cmd/fawn; \
	  cp README.md config.example.yaml "$$stage/$$name/"; \
	  tar -C "$$stage" -czf '$(DIST)'/"$$name.tar.gz" "$$name"; \
	done; \
	cd '$(DIST)'; if command -v sha256sum >/dev/null; then sha256sum fawn-*.tar.gz; else shasum -a 256 fawn-*.tar.gz; fi > SHA256SUMS; \
	echo "release: $(DIST)/SHA256SUMS"; cat SHA256SUMS

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
#
# BENCH_BASELINE is a commit whose fawn e2e's BenchmarkBaseline builds (from
# git archive, in a temporary directory: the checkout is not touched) and
# measures beside today's, interleaved in the same run: first frame, RSS,
# binary, streaming CPU and idle CPU, each with the goal ≤ 1.10×. The default,
# df36f05, is fawn before the wave of structural work (tasks, backends, ui/
# in rooms, one project package, the forks dropped), which was to cost the
# user nothing. A clone without that commit (a shallow one) skips those rows
# and says so in the table.
#
# The Monorepo benchmarks measure on a 200,000-file, 2 GiB fixture
# (internal/monorepo) that is made first in MONOREPO_DIR, when the disk has
# room for it (the generator checks and says), and removed at the end,
# whatever happens; and on Go's own source. Without the fixture its rows
# say why.
BENCH_BASELINE ?= df36f05
MONOREPO_DIR ?= $(or $(TMPDIR),/tmp)/fawn-bench-monorepo
bench: build
	set -o pipefail; \
	trap '[ -e "$(MONOREPO_DIR)/.fawn-monorepo" ] && rm -rf "$(MONOREPO_DIR)"' EXIT; \
	if $(GO) run ./internal/monorepo/cmd/monorepo -o '$(MONOREPO_DIR)'; then export FAWN_MONOREPO='$(MONOREPO_DIR)'; \
	else echo "bench: no monorepo fixture (above: why); its rows will say not run"; fi; \
	FAWN_BENCH_BASELINE=$(BENCH_BASELINE) $(GO) test -run '^$$' -bench . -benchmem -benchtime 3x -timeout 60m $(PKGS) | $(GO) run ./internal/benchsum -baseline $(BENCH_BASELINE) -o bin/bench-summary.md

# Fuzzes the terminal emulator with fawn's screen around it (make test runs
# only the seeds): no panic, and work and allocations bounded per byte.
# Minimizing a new input is cut to 10s: it is what a run spends most on.
FUZZTIME ?= 2m
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzScreen$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 10s ./terminal

VULNDB ?= https://vuln.go.dev
GOVULNCHECK ?= v1.9.0
GOCYCLO ?= v0.6.0

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)
	@# No file of fawn's over 900 lines: split one by concern first.
	@big=$$(git ls-files '*.go' | grep -v -e '_test.go$$' -e '^third_party/' | xargs wc -l | awk '$$2 != "total" && $$1 > 900 {print $$2 " (" $$1 " lines)"}'); \
	if [ -n "$$big" ]; then echo "over 900 lines (split by concern):"; echo "$$big"; exit 1; fi
	@# No function of fawn's with a cyclomatic complexity over 40.
	@cx=$$($(GO) run github.com/fzipp/gocyclo/cmd/gocyclo@$(GOCYCLO) -over 40 -ignore '^third_party/' .); \
	if [ -n "$$cx" ]; then echo "over 40 (split the function):"; echo "$$cx"; exit 1; fi
	@# go.mod and go.sum must be what go mod tidy makes of the imports.
	@$(GO) mod tidy -diff || { echo "go.mod or go.sum is not tidy: run go mod tidy and commit the result"; exit 1; }
	@# Known vulnerabilities in what fawn links, when the vulnerability
	@# database can be reached (a machine offline says so and goes on).
	@if curl -sf --max-time 5 -o /dev/null $(VULNDB)/index/db.json.gz; then \
		$(GO) run golang.org/x/vuln/cmd/govulncheck@$(GOVULNCHECK) ./...; \
	else echo "govulncheck skipped: $(VULNDB) cannot be reached from this machine"; fi

clean:
	rm -rf bin dist
