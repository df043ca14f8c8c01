# The two commands of the README.
#   make run   set up .venv/ and build the bundled sample into output/
#   make test  set up .venv/, lint (ruff, mypy) and run the test suite: on every core,
#              then the tests that need the machine alone (tests/conftest.py)
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test setup bench clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

setup: $(STAMP)

run: $(STAMP)
	$(BIN)/kg build -o output

test: $(STAMP)
	$(BIN)/ruff check kg tests bench setup.py
	$(BIN)/mypy
	$(BIN)/python -m pytest -q -n auto --dist loadgroup -m "not machine"
	$(BIN)/python -m pytest -q -m machine

bench: $(STAMP)
	$(BIN)/python bench/parse_bench.py

clean:
	rm -rf $(VENV) output/* build *.egg-info
