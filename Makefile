# patchlab: `make serve` and `make test` set up everything they need first.
SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

export PATH := $(CURDIR)/.tools/node_modules/.bin:$(HOME)/.cargo/bin:$(PATH)
export CHROMEDRIVER ?= $(shell command -v chromedriver 2>/dev/null)
WASM := --target wasm32-unknown-unknown

.PHONY: help setup setup-browser setup-bench serve dist pkg bench bench-js bench-batch test fmt-check clippy test-native test-browser test-e2e bench-browser fmt

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{ printf "  make %-14s %s\n", $$1, $$2 }'

setup: ## Install build tools (idempotent)
	@scripts/setup.sh

setup-browser: ## Install build tools, Chromium, chromedriver, e2e packages (idempotent)
	@scripts/setup.sh --browser

setup-bench: ## setup-browser plus hyperfine, for make bench (idempotent)
	@scripts/setup.sh --bench

serve: setup ## Serve the playground at http://127.0.0.1:8080 (rebuilds on change)
	trunk serve

dist: setup ## Release build into dist/ with relative URLs, CSP and offline cache; prints sizes
	trunk build --release --public-url ./
	scripts/pkg.sh dist/pkg
	cp www/embed.html dist/embed.html
	node scripts/postbuild.mjs dist
	@scripts/sizes.sh dist

pkg: setup ## The JavaScript API as an ES module with types into pkg/ (wasm-bindgen --target web)
	scripts/pkg.sh pkg

test: setup-browser ## Run every suite: fmt, clippy, native, browser, end-to-end
	@$(MAKE) --no-print-directory fmt-check clippy test-native test-browser dist test-e2e
	@echo "make test: all suites passed"

fmt-check:
	@echo "== cargo fmt --check"
	cargo fmt --all -- --check

clippy:
	@echo "== clippy (native)"
	cargo clippy --all-targets -- -D warnings
	@echo "== clippy (wasm32)"
	cargo clippy $(WASM) --lib --bins --tests -- -D warnings
	cargo clippy $(WASM) --lib --bins --features build-only -- -D warnings
	cargo clippy $(WASM) --lib --bins --features learn-only -- -D warnings
	cargo clippy $(WASM) --lib --bins --features scale-only -- -D warnings
	cargo clippy $(WASM) --lib --bins --features race-only -- -D warnings
	cargo clippy $(WASM) --lib --bins --features check-only -- -D warnings
	cargo clippy $(WASM) --lib --tests --features js -- -D warnings

test-native:
	@echo "== native tests"
	@if [ -d ../shared/conformance/json-patch-tests ] || [ -n "$${PATCHLAB_CONFORMANCE_DIR:-}" ]; then \
	  cargo test; \
	else \
	  echo "*** NOTICE: ../shared/conformance/json-patch-tests not found: the JSON Patch conformance test is SKIPPED (set PATCHLAB_CONFORMANCE_DIR to run it) ***"; \
	  cargo test -- --skip conformance_suite_passes_in_rfc_mode; \
	fi

test-browser:
	@echo "== browser tests (headless Chromium)"
	cargo test $(WASM) --tests --features js

test-e2e:
	@echo "== end-to-end tests (Playwright + Chromium against dist/)"
	npm test --prefix tests/e2e

bench-browser: setup-browser ## Browser benchmarks (release wasm in headless Chromium); prints times
	WASM_BINDGEN_TEST_TIMEOUT=300 cargo test --release $(WASM) --test browser_bench -- --include-ignored --nocapture

bench: setup-bench dist ## Every speed number in one table (first load, keystroke, Scale, apply, diff, batch, JS API, SMP vs kubectl)
	node scripts/bench.mjs

bench-js: setup-browser dist ## JavaScript API vs fast-json-patch in headless Chromium; prints a table
	node tests/e2e/bench-js.mjs

bench-batch: setup-bench ## Batch apply vs the json-patch crate (100,000 VMI cases, 300,000 small ones); asserts the same answers, prints hyperfine times
	scripts/batch-bench.sh

fmt: ## Format the code
	cargo fmt --all
