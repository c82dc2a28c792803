# Koda: `make demo` renders a sample prompt end to end; `make test` runs every test.
GO      ?= go
BIN     := bin/koda
SHEET   ?= data/bench/promptsuite-sheet.png
# Redis and PostgreSQL are used by the tests when they answer locally.
REDIS_URL    ?= $(shell (command -v redis-cli >/dev/null && redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null | grep -q PONG) && echo redis://127.0.0.1:6379/0)
POSTGRES_URL ?= $(shell (command -v pg_isready >/dev/null && pg_isready -q -h 127.0.0.1 -p 5432) && echo postgres://postgres@127.0.0.1:5432/test?sslmode=disable)

.PHONY: all build demo test test-short bench deps deps-test vet fmt clean assets

all: build

# CGO_ENABLED=1: without a C compiler Go would quietly build a binary whose SQLite
# driver is a stub; this way the build says what is missing.
build:
	CGO_ENABLED=1 $(GO) build -o $(BIN) ./cmd/koda

deps:
	@scripts/install-deps.sh

deps-test:
	@scripts/install-deps.sh test

## demo: install what is missing, build, and render the sample prompt on embedded defaults.
demo: deps build
	./$(BIN) demo

## test: every test, with the race detector, against real chromium, ffmpeg, SQLite,
## and Redis/PostgreSQL when they answer on their standard local ports.
test: deps-test
	KODA_TEST_REDIS_URL=$(REDIS_URL) KODA_TEST_DATABASE_URL='$(POSTGRES_URL)' \
		$(GO) test -race -count=1 -p 1 -timeout 60m ./...

## test-short: the same tests without the slow ones (multi-process runs, the prompt
## suite), for the edit-test loop; real binaries are still used.
test-short: deps-test
	KODA_TEST_REDIS_URL=$(REDIS_URL) KODA_TEST_DATABASE_URL='$(POSTGRES_URL)' \
		$(GO) test -short -count=1 -p 1 -timeout 30m ./...

vet:
	gofmt -l . | (! grep .) && $(GO) vet ./...

## fmt: rewrite every Go file with gofmt (vet fails on unformatted files).
fmt:
	gofmt -w .

## bench: render wall times of the demo project (preview and final presets), and the
## agent quality suite's pass rate ("N/M passed", automated and semantic counts, each
## failure) with its contact sheet (four frames per prompt, path printed; pages of eight
## prompts beside it); renderbench renders
## the same scenes with Koda, timecut, Remotion and HyperFrames (installed from npm by
## scripts/install-bench-peers.sh into ~/.cache/koda-bench) and measures the machine's
## floor and the per-frame-PNG baseline: wall, frames/s, core-seconds, peak memory, size
## and ratios, then how render time grows with duration and with two chunk workers,
## then one 5 s project to every platform preset: one by one, each distinct output
## once, and one capture per group of presets (own core-seconds and wall); then issue
## 24's data-driven throughput: 40 rows of a 6 s template at 720p and tiktok through
## `koda serve`'s template batch against Remotion's renderMedia per row with inputProps
## (rows/min, own core-seconds per row, load average; the longest line, about an hour
## on a busy 2-core machine).
bench: deps build
	$(GO) run ./cmd/koda-bench
	$(GO) run ./renderer/cmd/renderbench -scale 5,30,120 -presets all
	$(GO) run ./renderer/cmd/renderbench -cases none -templates 40 -koda $(BIN)
	-$(GO) run ./agent/cmd/promptsuite -sheet $(SHEET)
	-$(GO) run ./agent/cmd/vbench
	$(GO) run ./cmd/koda-load -koda $(BIN)

## assets: regenerate the embedded asset library from the npm packages pinned in
## agent/assets/sources.lock (scripts/fetch-assets --latest re-pins them), then the
## WordNet lexicon that leads nouns to its drawings.
assets:
	scripts/fetch-assets
	scripts/fetch-lexicon

clean:
	rm -rf bin data
