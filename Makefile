# Everyday commands. `make play` and `make test` are all a newcomer needs.
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-dev
GAME ?= amunre
PLAYERS ?=
PORT ?= 8000
HOST ?= 127.0.0.1
#: Where `make serve` keeps its database (ignored by git).
DATA ?= data

.PHONY: setup native pure serve play test lint format typecheck unit bench bench-research bench-server train-example golden clean

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)  ## create the virtualenv and install Karnak with its dev tools

# The engines' hot paths compiled with mypyc (karnak.native): rebuilt when a source changed,
# skipped in a second when nothing did; without a C compiler Karnak runs as pure Python.
native: setup  ## compile the engines' hot paths (KARNAK_NATIVE=0 runs pure Python anyway)
	$(BIN)/python -m karnak.native.build --if-stale

pure: setup  ## remove the compiled hot paths: everything runs as pure Python
	$(BIN)/python -m karnak.native.build --clean

serve: native  ## the game server: open http://127.0.0.1:8000 and play (PORT=8080, DATA=folder)
	mkdir -p $(DATA)
	$(BIN)/karnak serve --host $(HOST) --port $(PORT) --database $(DATA)/karnak.sqlite3

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

unit: native
	$(BIN)/pytest -n 2 -q

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

golden: setup  ## rewrite the golden playthroughs after an intended rules change
	$(BIN)/python tests/golden/regenerate.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis src/karnak/native/manifest.json
	find src -name '*.mypyc.so' -delete
