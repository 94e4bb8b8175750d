# syriamap's menu. `make run` and `make test` are the two commands a
# newcomer needs; both work on a clean clone with Go installed.

SHELL   := /bin/bash
GO      ?= go
SHARED  ?= ../shared
FUZZTIME ?= 30s
BENCH_N ?= 1000000
BENCH_DIR ?= /tmp/syriamap-bench

.PHONY: run test generate assets screenshots templ-check fmt-check vet unit bench bench-store bench-load fuzz geodata lint

## run: serve the archive (data/syriamap.db; the samples on a first run)
## at http://127.0.0.1:8080/
run:
	$(GO) run ./cmd/syriamap serve

## test: generated views up to date, gofmt check, go vet and every test
test: templ-check fmt-check vet unit

## generate: regenerate the templ views (views/*_templ.go, committed)
generate:
	$(GO) tool templ generate -path views

## assets: rebuild the map and timeline bundle (assets/static/app.js,
## committed) from assets/src with the npm packages pinned in
## assets/package-lock.json
assets:
	cd assets && npm ci --no-audit --no-fund && npm run build

## screenshots: PNGs of the explorer (desktop and 375 px) and a photo
## page, taken in headless Chromium, in screenshots/
screenshots:
	SYRIAMAP_SCREENSHOTS=$(CURDIR)/screenshots $(GO) test -count=1 -run 'TestBrowser' ./internal/httpapi

# templ-check generates the views into a scratch folder and fails if the
# committed files differ: a .templ edited without `make generate`.
templ-check:
	@tmp=$$(mktemp -d); trap 'rm -rf $$tmp' EXIT; cp views/*.templ $$tmp/; \
	$(GO) tool templ generate -path $$tmp >/dev/null 2>&1 || { echo "templ generate failed"; exit 1; }; \
	stale=0; for f in $$tmp/*_templ.go; do cmp -s $$f views/$$(basename $$f) || { echo "stale: views/$$(basename $$f) (run make generate)"; stale=1; }; done; \
	for f in views/*_templ.go; do [ -f $$tmp/$$(basename $$f) ] || { echo "orphan: $$f"; stale=1; }; done; exit $$stale

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

unit:
	$(GO) test ./...

lint: fmt-check vet

## bench: the speed figures (captions per second on one core, …)
bench:
	$(GO) test -run '^$$' -bench . -benchmem -cpu 1 ./internal/...

## bench-store: import BENCH_N generated captions into a fresh archive
## (timed) and measure its window query and monthly histogram
bench-store:
	mkdir -p $(BENCH_DIR)
	$(GO) build -o $(BENCH_DIR)/syriamap ./cmd/syriamap
	$(BENCH_DIR)/syriamap gen --n $(BENCH_N) > $(BENCH_DIR)/captions.txt
	rm -f $(BENCH_DIR)/archive.db*
	time $(BENCH_DIR)/syriamap import --db $(BENCH_DIR)/archive.db $(BENCH_DIR)/captions.txt
	ls -l $(BENCH_DIR)/archive.db
	SYRIAMAP_BENCH_DB=$(BENCH_DIR)/archive.db $(GO) test -run '^$$' -bench 'WindowQuery|Histogram' -benchtime 3s ./internal/store

## bench-load: serve BENCH_DB (default: the bench-store archive) and load it
## with wrk for LOAD_TIME: windowed GeoJSON queries, then three full
## 100k-feature downloads; prints the server's peak private memory (the
## archive's memory map, RssFile, is the page cache, shared and reclaimable)
BENCH_DB  ?= $(BENCH_DIR)/archive.db
LOAD_TIME ?= 20s
LOAD_ADDR ?= 127.0.0.1:18080
bench-load:
	mkdir -p $(BENCH_DIR)
	$(GO) build -o $(BENCH_DIR)/syriamap ./cmd/syriamap
	@set -e; \
	$(BENCH_DIR)/syriamap serve --db $(BENCH_DB) --addr $(LOAD_ADDR) --quiet & pid=$$!; \
	for i in $$(seq 50); do curl -fs http://$(LOAD_ADDR)/healthz >/dev/null && break; sleep 0.2; done; \
	peak=$$(mktemp); echo 0 > $$peak; \
	( while kill -0 $$pid 2>/dev/null; do \
	  a=$$(awk '/^RssAnon/{print $$2}' /proc/$$pid/status 2>/dev/null); \
	  [ -n "$$a" ] && [ "$$a" -gt "$$(cat $$peak)" ] && echo $$a > $$peak; sleep 0.1; done ) & \
	trap "kill $$pid; rm -f $$peak" EXIT; \
	wrk -t2 -c16 -d$(LOAD_TIME) --latency -s internal/httpapi/testdata/window.lua http://$(LOAD_ADDR); \
	for i in 1 2 3; do curl -fs -o /dev/null -w 'full 100k GeoJSON: %{size_download} bytes in %{time_total} s\n' 'http://$(LOAD_ADDR)/api/photos.geojson?limit=100000'; done; \
	echo "server peak private memory (RssAnon, sampled every 0.1 s): $$(( $$(cat $$peak) / 1024 )) MiB"; \
	grep -E 'VmHWM|RssFile' /proc/$$pid/status

## fuzz: fuzz the caption reader for FUZZTIME
fuzz:
	$(GO) test -run '^$$' -fuzz FuzzParse -fuzztime $(FUZZTIME) ./internal/caption
	$(GO) test -run '^$$' -fuzz FuzzSplit -fuzztime $(FUZZTIME) ./internal/caption
	$(GO) test -run '^$$' -fuzz FuzzReadCSV -fuzztime $(FUZZTIME) ./internal/ingest

## geodata: rebuild the bundled gazetteer from $(SHARED)/geodata
geodata:
	$(GO) run ./geodata/build -shared $(SHARED)
