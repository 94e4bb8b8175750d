# syriamap's menu. `make run` and `make test` are the two commands a
# newcomer needs; both work on a clean clone with Go installed.

GO      ?= go
SHARED  ?= ../shared
FUZZTIME ?= 30s

.PHONY: run test fmt-check vet unit bench fuzz geodata lint

## run: geocode the bundled sample captions (one JSON object per caption)
run:
	$(GO) run ./cmd/syriamap geocode --samples

## test: gofmt check, go vet and every test
test: fmt-check vet unit

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

## fuzz: fuzz the caption reader for FUZZTIME
fuzz:
	$(GO) test -run '^$$' -fuzz FuzzParse -fuzztime $(FUZZTIME) ./internal/caption
	$(GO) test -run '^$$' -fuzz FuzzSplit -fuzztime $(FUZZTIME) ./internal/caption

## geodata: rebuild the bundled gazetteer from $(SHARED)/geodata
geodata:
	$(GO) run ./geodata/build -shared $(SHARED)
