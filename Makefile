VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: play fight test bench clean

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev,train]'
	touch $(STAMP)

play: $(STAMP)
	$(VENV)/bin/wasteland play --ruleset pnp --scenario vault_corridor --seed 7

fight: $(STAMP)
	$(VENV)/bin/wasteland fight --ruleset pnp --scenario vault_corridor --seed 7

test: $(STAMP)
	$(VENV)/bin/ruff check wasteland tests benchmarks
	$(VENV)/bin/mypy wasteland
	$(VENV)/bin/pytest -q

bench: $(STAMP)
	$(PY) benchmarks/env_throughput.py

clean:
	rm -rf $(VENV)
