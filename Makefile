# gdlab's two entry points are `make run` (the main job) and `make test`.
SHELL := /bin/bash
export PATH := $(PATH):/usr/local/go/bin
JUPYTER_PREFIX := $(CURDIR)/out/jupyter

.PHONY: run test deps build kernel-install notebooks lab bench fuzz symbols

## run: install what is missing, build, install the kernel locally, execute every notebook to out/
run: deps build kernel-install notebooks

## test: every Go test (corpus tests run when ../shared is present), the kernel against real
## Jupyter, the scripts' tests, then every notebook executed headless and its ledger verdicts
## checked against the committed ones (GDLAB_QUICK=1 makes them short, as CI does)
test: deps kernel-install
	go vet ./...
	go test -timeout 30m ./...
	bash kernel/testdata/run_tests.sh
	/usr/bin/python3 -m unittest discover -s scripts -p 'test_*.py'
	bash scripts/notebooks.sh

deps:
	bash scripts/deps.sh

build:
	go build -o bin/gdlab ./cmd/gdlab

## kernel-install: the "Go (gdlab)" kernelspec under out/jupyter, leaving the user's Jupyter alone
kernel-install: build
	bin/gdlab kernel install --prefix $(JUPYTER_PREFIX)

notebooks: kernel-install
	bash scripts/notebooks.sh

## lab: Jupyter for interactive work, with the gdlab kernel
lab: kernel-install
	JUPYTER_PATH=$(JUPYTER_PREFIX)/share/jupyter /usr/bin/python3 -m notebook --notebook-dir=notebooks

bench:
	go test -run '^$$' -bench . -benchtime 2s ./engine/...

fuzz:
	go test -run '^$$' -fuzz FuzzParse -fuzztime 2m ./engine/gdl/check/

symbols:
	go generate ./kernel/symbols
