# Two commands set everything up on a fresh machine (only python3 and make needed):
#   make demo   - create .venv, install jaxlint, lint the bundled example project
#   make test   - create .venv, install jaxlint with its test, runtime, MCP and LSP extras, run all tests
#   make test-fast - the same without the tests marked slow (for development; CI runs `make test`)
#   make fuzz   - the property tests with a large budget, then 3,000 mutants of the pinned corpus
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test test-fast bench fuzz docs clean-venv

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
