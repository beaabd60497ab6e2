# The two commands a newcomer needs: `make demo` and `make test`. Both set up .venv on first use.
PY ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup demo test fuzz lint typecheck imports openapi bench bench-quality bench-recall scenarios ts-client clean

# The C part (the embedded index's ranking loop) is built by the install: rebuilt when it changes.
$(STAMP): pyproject.toml setup.py shared/tutor_memory/adapters/_ranking.c
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[local,plots,dev]'
	touch $(STAMP)

setup: $(STAMP)

demo: $(STAMP)
	$(BIN)/tutor-memory demo

lint: $(STAMP)
	$(BIN)/ruff check shared tests
	$(BIN)/ruff format --check shared tests
	$(BIN)/cfn-lint template.yaml

typecheck: $(STAMP)
	$(BIN)/mypy

# The import contracts of pyproject.toml ([tool.importlinter]): layers, a pure domain, no circles.
imports: $(STAMP)
	$(BIN)/lint-imports --no-cache --no-logo

# The whole suite, the bounded fuzz run (tests/fuzz, both backends: a few minutes) included.
test: lint typecheck imports
	$(BIN)/pytest -p no:cacheprovider

# Schemathesis against `tutor-memory serve` on both backends (the embedded store; DynamoDB on
# moto's server): a fixed seed, over 5,000 requests each, the stateful links of infra/openapi.json,
# while slow and broken clients (tests/fuzz/hostile.py) trickle, stall, hang up, send 300 KB of
# headers, come 200 at once and hold 1,000 connections idle; fails on a 5xx, a dropped connection,
# an undocumented status or a schema mismatch, then checks every pair's chain and that each
# acknowledged create was written, and prints a summary table (docs/testing.md: about 25 minutes).
# `make test` runs a bounded variant on both backends: fewer cases (60 an operation on the
# embedded store, 20 on DynamoDB, over a thousand requests each), one round of probes each.
fuzz: $(STAMP)
	TUTOR_MEMORY_FUZZ_LONG=1 $(BIN)/pytest -p no:cacheprovider -q -s -p no:logging tests/fuzz

# Evidence (nothing here is asserted by the tests): results go to bench-results/.
scenarios: $(STAMP)
	$(BIN)/tutor-memory scenarios

bench-quality: $(STAMP)
	$(BIN)/tutor-memory bench-quality --out bench-results

bench: $(STAMP)
	$(BIN)/tutor-memory bench --out bench-results

# Recall on conversations: MADial-Bench (shipped, MIT), synthetic and long multi-session pairs,
# beside BM25, dense and RRF baselines; a few minutes on 2 cores (the vectors are kept between runs).
# DATA=FILE asks your own conversations instead (docs/recall-bench.md gives the file's format).
bench-recall: $(STAMP)
	$(BIN)/tutor-memory bench-recall --out bench-results $(if $(DATA),--data "$(DATA)")

openapi: $(STAMP)
	$(BIN)/tutor-memory openapi > infra/openapi.json

# The TypeScript client's dependencies, as its lockfile pins them (its pytest runs `npm ci`
# itself when they are missing, so `make test` needs no more than node and npm).
ts-client:
	cd clients/typescript && npm ci --no-audit --no-fund

clean:
	rm -rf $(VENV) .tutor-memory .pytest_cache .mypy_cache .ruff_cache
