VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: play fight test bench compile clean

COMPILED := $(VENV)/.compiled
ENGINE_SOURCES := $(wildcard wasteland/rules/*.py wasteland/rules/*/*.py wasteland/agents/packets/*.py) \
	wasteland/_compiled.py setup.py

# The install compiles the hot path with mypyc (setup.py), with the venv's own mypy.
$(STAMP): pyproject.toml setup.py
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet setuptools wheel 'mypy>=1.8' 'pydantic>=2.5' types-PyYAML
	$(PY) -m pip install --quiet --no-build-isolation -e '.[dev,train]'
	touch $(STAMP) $(COMPILED)

# A rule or packet source changed since the last build: compile again (else the engine
# would run as plain Python, with a warning; WASTELAND_PURE=1 asks for that).
$(COMPILED): $(STAMP) $(ENGINE_SOURCES)
	$(PY) setup.py --quiet build_ext --inplace
	touch $(COMPILED)

compile: $(COMPILED)

play: $(COMPILED)
	$(VENV)/bin/wasteland play --ruleset pnp --scenario vault_corridor --seed 7

fight: $(COMPILED)
	$(VENV)/bin/wasteland fight --ruleset pnp --scenario vault_corridor --seed 7

test: $(COMPILED)
	$(VENV)/bin/ruff check wasteland tests benchmarks
	$(VENV)/bin/mypy wasteland
	$(VENV)/bin/pytest -q

bench: $(COMPILED)
	$(PY) benchmarks/env_throughput.py
	$(PY) benchmarks/simulate.py

clean:
	rm -rf $(VENV) build
	find wasteland -name '*.so' -delete
	rm -f wasteland_engine__mypyc*.so wasteland/_compiled.json
