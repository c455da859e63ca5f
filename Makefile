VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: play fight test bench compile clean train-radscorpion-f2d20

# The install compiles the hot path with mypyc (setup.py), with the venv's own mypy.
$(STAMP): pyproject.toml setup.py Makefile
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet setuptools wheel 'mypy>=1.8' 'pydantic>=2.5' types-PyYAML
	$(PY) -m pip install --quiet --no-build-isolation -e '.[dev,train,ray]'
	@# an install whose compile failed beside an older build ("stale") is done again next
	@# time: only an install maps the engine's library for the editable package
	@$(PY) -c "import sys, wasteland; sys.exit(wasteland.ENGINE == 'stale')" 2>/dev/null \
		&& touch $(STAMP) || echo "wasteland: the engine did not compile; make installs again next time"

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

# radscorpion_f2d20 is distilled from three teachers (docs/training.md, "Distil
# radscorpion_f2d20"): train and export each where the student's config finds it, then the
# student, exported before PPO (its step 0 checkpoint), checked on seeds 1000..1999. About
# 25 minutes on 2 cores. The shipped wasteland/policies/radscorpion_f2d20 is that student.
TEACHERS := wasteland/training/configs/teachers
train-radscorpion-f2d20: compile
	for t in generalist duel vault; do \
		$(VENV)/bin/wasteland train $(TEACHERS)/radscorpion_f2d20_$$t.yaml \
			--out runs/radscorpion_f2d20_$$t --no-progress && \
		$(VENV)/bin/wasteland export runs/radscorpion_f2d20_$$t \
			--name radscorpion_f2d20_$$t --out $(TEACHERS) || exit 1; \
	done
	$(VENV)/bin/wasteland train radscorpion_f2d20 --out runs/radscorpion_f2d20 --no-progress
	$(VENV)/bin/wasteland export runs/radscorpion_f2d20 --name radscorpion_f2d20 \
		--checkpoint step_0 --out runs/radscorpion_f2d20/export
	$(PY) benchmarks/policy_seats.py runs/radscorpion_f2d20/export/radscorpion_f2d20.json \
		-n 1000 --jobs 2 --first-seed 1000

clean:
	rm -rf $(VENV) build
	find wasteland -name '*.so' -delete
	rm -f wasteland_engine__mypyc*.so wasteland/_compiled.json
