# Two commands set everything up on a fresh machine (only python3 and make needed):
#   make demo   - create .venv, install jaxlint, lint the bundled example project
#   make test   - create .venv, install jaxlint with its test, runtime, MCP and LSP extras, run all tests
#   make test-fast - the same without the tests marked slow (for development; CI runs `make test`)
#   make fuzz   - the property tests with a large budget, then 3,000 mutants of the pinned corpus
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test test-fast test-libcst-low bench fuzz docs clean-venv

# the lowest libcst pyproject.toml admits; make test runs the newest
LIBCST_LOW := 1.1.0
LOW_VENV := .venv-libcst-low

$(BIN)/.jaxlint-base: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e .
	touch $@

$(BIN)/.jaxlint-dev: $(BIN)/.jaxlint-base
	$(BIN)/python -m pip install -q -e '.[dev,runtime,mcp,lsp]'
	touch $@

demo: $(BIN)/.jaxlint-base
	@echo "== jaxlint examples/  (sharp/ has the bugs, clean/ has none) =="
	@$(BIN)/jaxlint check examples/ --no-cache --statistics || [ $$? -eq 1 ]
	@$(BIN)/jaxlint check examples/ --no-cache || [ $$? -eq 1 ]
	@echo "== jaxlint is installed in $(VENV): run \`. $(BIN)/activate\` to put \`jaxlint\` on your PATH (or call $(BIN)/jaxlint) =="

test: $(BIN)/.jaxlint-dev
	$(BIN)/python -m pytest

test-fast: $(BIN)/.jaxlint-dev
	$(BIN)/python -m pytest -m "not slow"

# the parse-dependent tests at the lowest libcst of the pinned range (no runtime extras)
test-libcst-low:
	$(PYTHON) -m venv $(LOW_VENV)
	$(LOW_VENV)/bin/python -m pip install -q --upgrade pip
	$(LOW_VENV)/bin/python -m pip install -q 'libcst==$(LIBCST_LOW)' 'pytest>=8' -e '.[lsp]'
	$(LOW_VENV)/bin/python -m pytest -q tests/test_fastparse.py tests/test_engine.py tests/test_rule_examples.py tests/test_positions.py

bench: $(BIN)/.jaxlint-base
	$(BIN)/python bench/run_bench.py

# property tests with a large example budget, then mutants of the pinned corpus (bench/fuzz.py)
fuzz: $(BIN)/.jaxlint-dev
	JAXLINT_FUZZ_EXAMPLES=300 $(BIN)/python -m pytest -q tests/test_properties.py tests/test_properties_incremental.py
	$(BIN)/python bench/fuzz.py --mutants 3000

docs: $(BIN)/.jaxlint-base
	$(BIN)/python -m jaxlint.docs

clean-venv:
	rm -rf $(VENV)
