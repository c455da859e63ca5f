VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: play fight test bench compile clean

# The install compiles the hot path with mypyc (setup.py), with the venv's own mypy.
$(STAMP): pyproject.toml setup.py Makefile
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet setuptools wheel 'mypy>=1.8' 'pydantic>=2.5' types-PyYAML
	$(PY) -m pip install --quiet --no-build-isolation -e '.[dev,train,ray]'
	touch $(STAMP)

# A compiled source changed since the build (the import's hash check says "stale"):
# compile again, else the engine would run as plain Python (WASTELAND_PURE=1 asks for that)
compile: $(STAMP)
	@$(PY) -c "import sys, wasteland; sys.exit(wasteland.ENGINE == 'stale')" 2>/dev/null \
		|| $(PY) setup.py --quiet build_ext --inplace

play: compile
	$(VENV)/bin/wasteland play --ruleset pnp --scenario vault_corridor --seed 7

fight: compile
	$(VENV)/bin/wasteland fight --ruleset pnp --scenario vault_corridor --seed 7

test: compile
	$(VENV)/bin/ruff check wasteland tests benchmarks
	$(VENV)/bin/mypy wasteland
	$(VENV)/bin/pytest -q

bench: compile
	$(PY) benchmarks/env_throughput.py
	$(PY) benchmarks/simulate.py

clean:
	rm -rf $(VENV) build
	find wasteland -name '*.so' -delete
	rm -f wasteland_engine__mypyc*.so wasteland/_compiled.json
