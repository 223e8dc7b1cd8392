# Everyday commands. `make play` and `make test` are all a newcomer needs.
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-dev
#: `make serve` installs the server extra only (no dev tools, no compiler): its own stamp.
SERVE_STAMP := $(VENV)/.installed-server
#: mypyc and setuptools (the `native` extra), installed by the background build only.
NATIVE_STAMP := $(VENV)/.installed-native
PIP := $(BIN)/pip --quiet --disable-pip-version-check
GAME ?= amunre
PLAYERS ?=
PORT ?= 8000
HOST ?= 127.0.0.1
#: Where `make serve` keeps its database (ignored by git).
DATA ?= data

.PHONY: setup messages native native-background native-if-stale pure serve play test lint format typecheck unit bench bench-research bench-server train-example golden clean

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PIP) install --upgrade pip
	$(PIP) install -e '.[dev]'
	touch $(STAMP)

# What serving needs and nothing more. A virtualenv that already has the dev set (make setup,
# make test) has all of it.
$(SERVE_STAMP): pyproject.toml
	@if [ -f $(STAMP) ] && [ $(STAMP) -nt pyproject.toml ]; then :; else \
		echo "installing the server's packages into $(VENV) (the first time only) ..."; \
		python3 -m venv $(VENV) && $(PIP) install -e '.[server]'; fi
	@touch $@

$(NATIVE_STAMP): pyproject.toml
	$(PIP) install $$($(BIN)/python -c 'import tomllib; print(" ".join(tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"]["native"]))')
	touch $@

setup: $(STAMP)  ## create the virtualenv and install Karnak with its dev tools

# The engines' hot paths compiled with mypyc (karnak.native): rebuilt when a source changed,
# skipped in a second when nothing did; without a C compiler Karnak runs as pure Python.
native: setup  ## compile the engines' hot paths (KARNAK_NATIVE=0 runs pure Python anyway)
	$(BIN)/python -m karnak.native.build --if-stale

pure: setup  ## remove the compiled hot paths: everything runs as pure Python
	$(BIN)/python -m karnak.native.build --clean

# Translations (docs/translating.md): every marked text of every domain merged into each
# language's .po file; `python -m karnak.i18n.catalogs check` lists what is untranslated.
messages: setup  ## extract the texts to translate into the .po catalogues (de, fr)
	$(BIN)/python -m karnak.i18n.catalogs update

# The first command: the server answers as soon as its packages are in. The hot paths compile
# meanwhile in the background (nice'd, one compiler, logging to $(DATA)/native-build.log) and
# are used from the server's next start; until then it runs the same engines as pure Python.
serve: $(SERVE_STAMP)  ## the game server: open http://127.0.0.1:8000 and play (PORT=8080, DATA=folder)
	@mkdir -p $(DATA)
	@$(MAKE) --no-print-directory native-background
	$(BIN)/karnak serve --host $(HOST) --port $(PORT) --database $(DATA)/karnak.sqlite3

# Starts the build unless it is current, already running, or KARNAK_NATIVE=0 asks for pure
# Python. nohup: it outlives a closed terminal; Ctrl-C on the server does not reach it.
native-background: $(SERVE_STAMP)
	@mkdir -p $(DATA)
	@if [ "$$KARNAK_NATIVE" = 0 ] || $(BIN)/python -c 'import sys; from karnak.native.loader import check; sys.exit(not check()[0].active)'; then :; \
	elif [ -f $(DATA)/native-build.pid ] && kill -0 "$$(cat $(DATA)/native-build.pid)" 2>/dev/null; then \
		echo "the hot paths are still compiling in the background (log: $(DATA)/native-build.log): pure Python until then"; \
	else \
		nohup nice -n 19 $(MAKE) --no-print-directory native-if-stale > $(DATA)/native-build.log 2>&1 & \
		echo $$! > $(DATA)/native-build.pid; \
		echo "compiling the hot paths in the background (log: $(DATA)/native-build.log; about 10 min on 2 cores): this run is pure Python, the next start is compiled"; \
	fi

native-if-stale: $(NATIVE_STAMP)
	$(BIN)/python -m karnak.native.build --if-stale --jobs 1

play: native  ## play in the terminal against bots (GAME=aton for Aton; PLAYERS=N)
	$(BIN)/karnak play $(GAME) $(if $(PLAYERS),--players $(PLAYERS))

test: lint typecheck unit  ## everything CI runs

lint: setup
	$(BIN)/ruff check src tests bench examples
	$(BIN)/ruff format --check src tests bench examples

format: setup
	$(BIN)/ruff check --fix src tests bench examples
	$(BIN)/ruff format src tests bench examples

typecheck: setup
	$(BIN)/mypy

# worksteal: a worker that runs out of tests takes queued ones from the other, so one long
# test near the end does not leave a core idle; --durations names the slowest, to keep
# the suite within its 15 minutes
unit: native
	$(BIN)/pytest -n 2 --dist worksteal -q --durations=15

bench: native  ## engine speed against OpenSpiel references (installs the bench extra)
	$(BIN)/pip install --quiet -e '.[dev,bench]'
	$(BIN)/python bench/engine.py

bench-research: native  ## steps/s through every research adapter, next to OpenSpiel's oh_hell and goofspiel
	$(BIN)/python bench/research.py --out bench/results/research.md

bench-server: setup  ## 200 concurrent games against a real server: latency, errors, lost moves
	$(BIN)/python bench/server_load.py --games 200 --pause 2 1 --synchronous FULL NORMAL

train-example: native  ## docs/research.md's worked example: an agent learns Aton on one core (about 3 min)
	$(BIN)/python examples/train_aton.py --out runs/aton
	cp runs/aton/learning_curve.csv runs/aton/learning_curve.png docs/research/
	mv docs/research/learning_curve.csv docs/research/aton_learning_curve.csv
	mv docs/research/learning_curve.png docs/research/aton_learning_curve.png

golden: setup  ## rewrite the golden files after an intended change (tests/golden/README.md)
	$(BIN)/python tests/golden/regenerate.py
	$(BIN)/python tests/golden/playthroughs/generate.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis src/karnak/native/manifest.json
	find src -name '*.mypyc.so' -delete
