# Koda: `make demo` renders a sample prompt end to end; `make test` runs every test.
GO      ?= go
BIN     := bin/koda
# Redis and PostgreSQL are used by the tests when they answer locally.
REDIS_URL    ?= $(shell (command -v redis-cli >/dev/null && redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null | grep -q PONG) && echo redis://127.0.0.1:6379/0)
POSTGRES_URL ?= $(shell (command -v pg_isready >/dev/null && pg_isready -q -h 127.0.0.1 -p 5432) && echo postgres://postgres@127.0.0.1:5432/test?sslmode=disable)

.PHONY: all build demo test test-short bench deps deps-test vet fmt clean

all: build

build:
	$(GO) build -o $(BIN) ./cmd/koda

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

vet:
	gofmt -l . | (! grep .) && $(GO) vet ./...

## bench: render wall times of the demo project (preview and final presets), and the
## agent quality suite's pass rate ("N/42 passed" and each failure); renderbench renders
## the reference pages with the baseline method (one tab, PNG per frame on disk, then
## ffmpeg) and with Koda's renderer: frames/s, speed-up and peak memory.
bench: deps build
	$(GO) run ./cmd/koda-bench
	$(GO) run ./renderer/cmd/renderbench
	-$(GO) run ./agent/cmd/promptsuite
	$(GO) run ./cmd/koda-load -koda $(BIN)

clean:
	rm -rf bin data
