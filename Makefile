# syriamap's menu. `make run` and `make test` are the two commands a
# newcomer needs; both work on a clean clone with Go installed.

SHELL   := /bin/bash
GO      ?= go
SHARED  ?= ../shared
FUZZTIME ?= 30s
BENCH_DIR ?= /tmp/syriamap-bench
BENCH_OUT ?= bench/results.json
# PEER=1: measure against pg_featureserv from PEER_DIR instead of printing
# the table (installs PostgreSQL and PostGIS from Debian when missing).
PEER_DIR ?= ../shared/peers/pg_featureserv-1.3.1

.PHONY: run test train generate assets assets-check site-vectors screenshots templ-check fmt-check vet staticcheck unit bench bench-events bench-images bench-reliability bench-copy bench-engines bench-go review-loop fuzz geodata lint

## run: serve the archive (data/syriamap.db; the samples on a first run)
## at http://127.0.0.1:8080/
run:
	$(GO) run ./cmd/syriamap serve

## test: generated views and bundle up to date, gofmt check, go vet,
## staticcheck, no function over 30 paths (gocyclo), the published site's
## scripts on the server's vectors and every test (the store's on SQLite
## and again on PostgreSQL)
test: templ-check assets-check site-vectors fmt-check vet staticcheck cyclo unit

## train: fit the geocoder's confidence model (internal/geoparse/geocode/model.json)
## on the written test captions and ../shared/eval's real ones; prints the
## calibration, in-sample, cross-validated and with each kind of place left
## out of the fit, and the weights
train:
	$(GO) run ./cmd/syriamap-train --shared $(SHARED)

## generate: regenerate the templ views (views/*_templ.go, committed)
generate:
	$(GO) tool templ generate -path views

## assets: rebuild the map and timeline bundle (assets/static/app.js,
## committed) from assets/src with the npm packages pinned in
## assets/package-lock.json
assets:
	cd assets && npm ci --no-audit --no-fund && npm run build

## screenshots: PNGs of the explorer, a stacked spot's list, a photo page
## and the about page at 1440×900, 1024×768 and 375×812, and of the
## review page with its evidence and with a group's split, and in Arabic
## the explorer (and a popup), a photo, a place, sign-in and the review
## after a correction at 1440×900 and 375×812, and a reused photo's page
## with its custody record and a graphic photo's page, blurred, in both
## languages, taken in headless
## Chromium, in screenshots/
screenshots:
	SYRIAMAP_SCREENSHOTS=$(CURDIR)/screenshots $(GO) test -count=1 -run 'TestBrowserScreenshots|TestBrowserReviewShowsTheEvidence|TestBrowserGroupSplitShown|TestBrowserArabic$$|TestBrowserPhoneCardLeavesTheMap|TestBrowserCustodyAndReuse|TestBrowserGraphicIsBlurred|TestBrowserBulkReviewConfirmsOnlyNamedPlaces|TestBrowserSearchForgivesAndTells|TestBrowserPublishedWithoutRanges|TestBrowserSecondLooks' ./internal/http/browsertest

# templ-check generates the views into a scratch folder and fails if the
# committed files differ: a .templ edited without `make generate`.
templ-check:
	@tmp=$$(mktemp -d); trap 'rm -rf $$tmp' EXIT; cp views/*.templ $$tmp/; \
	$(GO) tool templ generate -path $$tmp >/dev/null 2>&1 || { echo "templ generate failed"; exit 1; }; \
	stale=0; for f in $$tmp/*_templ.go; do cmp -s $$f views/$$(basename $$f) || { echo "stale: views/$$(basename $$f) (run make generate)"; stale=1; }; done; \
	for f in views/*_templ.go; do [ -f $$tmp/$$(basename $$f) ] || { echo "orphan: $$f"; stale=1; }; done; exit $$stale

# assets-check rebuilds the map's bundle into a scratch folder and fails if
# the committed one differs: assets/src edited without `make assets`. It
# needs the npm packages (cd assets && npm ci; CI installs them) and says
# so, without failing, when they are not there outside CI.
assets-check:
	@if [ ! -d assets/node_modules ]; then \
		if [ "$$CI" = true ]; then echo "assets-check: assets/node_modules is missing (cd assets && npm ci)"; exit 1; fi; \
		echo "assets-check: skipped (cd assets && npm ci to check the bundle)"; exit 0; fi; \
	tmp=$$(mktemp -d); trap 'rm -rf $$tmp' EXIT; \
	(cd assets && node_modules/.bin/esbuild src/app.js --bundle --minify --format=iife --target=es2020 --legal-comments=linked --outfile=$$tmp/app.js --log-level=error) || exit 1; \
	(cd assets && node_modules/.bin/esbuild src/upload.js --bundle --minify --format=iife --target=es2020 --legal-comments=linked --outfile=$$tmp/upload.js --log-level=error) || exit 1; \
	cmp -s $$tmp/app.js assets/static/app.js || { echo "stale: assets/static/app.js (run make assets)"; exit 1; }; \
	cmp -s $$tmp/upload.js assets/static/upload.js || { echo "stale: assets/static/upload.js (run make assets)"; exit 1; }

# site-vectors runs the published site's own scripts (assets/src) on the
# inputs the server's rules were run on (internal/http/publish/testdata/
# site-vectors.json, which TestSiteVectors keeps up to date): any answer
# not the server's fails. It needs Node and says so, without failing, when
# there is none outside CI.
site-vectors:
	@if ! command -v node >/dev/null 2>&1; then \
		if [ "$$CI" = true ]; then echo "site-vectors: node is missing"; exit 1; fi; \
		echo "site-vectors: skipped (no node)"; exit 0; fi; \
	cd assets && node --test test/

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

# staticcheck is pinned in go.mod as a tool (go get -tool …@v0.8.2).
staticcheck:
	$(GO) tool staticcheck ./...

# cyclo fails on a function of more than 30 paths (the generated views
# aside): past it a function wants splitting. gocyclo is pinned in go.mod
# as a tool.
cyclo:
	@out=$$($(GO) tool gocyclo -over 30 -ignore '_templ\.go$$' .); \
	if [ -n "$$out" ]; then echo "functions over 30 paths (split them):"; echo "$$out"; exit 1; fi

# unit runs every test (those of the store on SQLite, the embedded
# default), then the store's and the archive's again on PostgreSQL: their
# behaviour is their tests', on both engines. Each run of the PostgreSQL suite starts
# a throwaway cluster (internal/pgtest; Debian's postgresql package).
unit:
	$(GO) test -timeout 30m ./...
	SYRIAMAP_TEST_ENGINE=postgres $(GO) test -timeout 30m ./internal/store/... ./internal/archive/...

lint: fmt-check vet staticcheck cyclo

comma := ,

## bench: the performance table (`cmd/syriamap-bench`): archives of 10k,
## 100k and 1M generated captions imported, served and measured through
## the API, wrk and headless Chromium; also written to BENCH_OUT as JSON.
## QUICK=1 leaves out the 1M archive and finishes in under 2 minutes.
## PEER=1 measures syriamap against pg_featureserv instead, side by side on
## the same photos and windows, and prints both with the ratios.
## Then bench-events.
bench:
	mkdir -p $(BENCH_DIR)
	$(GO) build -o $(BENCH_DIR)/syriamap ./cmd/syriamap
	$(GO) run ./cmd/syriamap-bench --syriamap $(BENCH_DIR)/syriamap --dir $(BENCH_DIR) --out $(BENCH_OUT) $(if $(filter 1 true yes,$(QUICK)),--quick) $(if $(filter 1 true yes,$(PEER)),--peer $(PEER_DIR))
	$(MAKE) bench-events

## bench-events: the conflict events at scale (issue 56): `events import`
## of a file the size of the global GED (386,000 rows), a photo page's
## candidates with those events held, and a million photos' candidates
## over 400,000 events through the index
bench-events:
	$(GO) test -run '^$$' -bench 'ImportGlobalGED' -benchtime 1x -timeout 60m ./internal/archive
	$(GO) test -run '^$$' -bench 'PhotoCandidates' -benchtime 100x -timeout 60m ./internal/archive
	$(GO) test -run '^$$' -bench 'SuggestMillion' -benchtime 1x -timeout 60m ./internal/conflict

## bench-images: import 1,000 JPEGs of about 5 MB (made once under
## BENCH_DIR, 4.6 GB) into a fresh archive, from disk, then again
bench-images:
	mkdir -p $(BENCH_DIR)
	$(GO) build -o $(BENCH_DIR)/syriamap ./cmd/syriamap
	$(GO) run ./cmd/syriamap-bench --syriamap $(BENCH_DIR)/syriamap --dir $(BENCH_DIR) --images $(or $(IMAGES),1000)

## bench-copy: syriamap copy of an archive of 200,000 generated photos
## (PHOTOS) to PostgreSQL (a throwaway cluster, or POSTGRES=URL) and back,
## verify on each copy: the times and both custody heads
bench-copy:
	mkdir -p $(BENCH_DIR)
	$(GO) build -o $(BENCH_DIR)/syriamap ./cmd/syriamap
	$(GO) run ./cmd/syriamap-bench --syriamap $(BENCH_DIR)/syriamap --dir $(BENCH_DIR) --copy $(or $(PHOTOS),200000) $(if $(POSTGRES),--postgres '$(POSTGRES)')

## bench-engines: one archive of 200,000 generated photos (PHOTOS) on
## SQLite and copied with `syriamap copy` to a private PostgreSQL cluster
## and back (both verified): each engine served and measured in the same
## minutes on the repeated month + city window and the first answer after
## a write
bench-engines:
	mkdir -p $(BENCH_DIR)
	$(GO) build -o $(BENCH_DIR)/syriamap ./cmd/syriamap
	$(GO) run ./cmd/syriamap-bench --syriamap $(BENCH_DIR)/syriamap --dir $(BENCH_DIR) --engines $(or $(PHOTOS),200000) $(if $(filter 1 true yes,$(QUICK)),--quick)

## bench-reliability: the reliability scenarios on an archive of 20,000
## generated photos and crafted image bombs: bombs (peak RSS, /healthz
## p99), 250 parallel sign-ins, 8 stalled gzip clients with writes (RSS
## after), the stall scenario with the review pages; SCENARIOS=replicas:
## two replicas on a private PostgreSQL behind HAProxy under the mixed
## load, one killed with SIGKILL half way, then PostgreSQL stopped 10 s
bench-reliability:
	mkdir -p $(BENCH_DIR)
	$(GO) build -o $(BENCH_DIR)/syriamap ./cmd/syriamap
	$(GO) run ./cmd/syriamap-bench --syriamap $(BENCH_DIR)/syriamap --dir $(BENCH_DIR) --reliability $(or $(PHOTOS),20000) $(if $(SCENARIOS),--scenarios '$(SCENARIOS)')

## review-loop: import labelled captions (EVAL, comma separated; default
## ../shared/eval's), review the least confident fifth through the write
## API, regeocode, and score the photos nobody reviewed before and after
review-loop:
	mkdir -p $(BENCH_DIR)
	$(GO) build -o $(BENCH_DIR)/syriamap ./cmd/syriamap
	$(GO) run ./cmd/syriamap-bench --syriamap $(BENCH_DIR)/syriamap --dir $(BENCH_DIR) --review-loop $(or $(EVAL),$(SHARED)/eval/dev-captions.jsonl$(comma)$(SHARED)/eval/dev-captions-2.jsonl$(comma)$(SHARED)/eval/arabic-dev-captions.jsonl)

## bench-go: every Go benchmark on one core, for profiling one part
## (add -cpuprofile); the archive ones need SYRIAMAP_BENCH_DB, e.g.
## $(BENCH_DIR)/archive-1M.db after `make bench`
bench-go:
	$(GO) test -run '^$$' -bench . -benchmem -cpu 1 ./internal/...

## fuzz: fuzz the caption reader, the three importers (all or nothing,
## never a panic), the geocoder, the OGC filter reader and the JPEG metadata
## reader, each for FUZZTIME
fuzz:
	$(GO) test -run '^$$' -fuzz FuzzParse -fuzztime $(FUZZTIME) ./internal/geoparse/caption
	$(GO) test -run '^$$' -fuzz FuzzSplit -fuzztime $(FUZZTIME) ./internal/geoparse/caption
	$(GO) test -run '^$$' -fuzz FuzzCSV -fuzztime $(FUZZTIME) ./internal/archive
	$(GO) test -run '^$$' -fuzz FuzzJSONL -fuzztime $(FUZZTIME) ./internal/archive
	$(GO) test -run '^$$' -fuzz FuzzTXT -fuzztime $(FUZZTIME) ./internal/archive
	$(GO) test -run '^$$' -fuzz FuzzGeocode -fuzztime $(FUZZTIME) ./internal/geoparse/geocode
	$(GO) test -run '^$$' -fuzz FuzzParse -fuzztime $(FUZZTIME) ./internal/http/cql
	$(GO) test -run '^$$' -fuzz FuzzRead -fuzztime $(FUZZTIME) ./internal/evidence/imagemeta

## geodata: rebuild the bundled gazetteer from $(SHARED)/geodata
geodata:
	$(GO) run ./geodata/build -shared $(SHARED)
