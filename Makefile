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

.PHONY: setup serve play test lint format typecheck unit bench bench-server golden clean

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)  ## create the virtualenv and install Karnak with its dev tools

serve: setup  ## the game server: open http://127.0.0.1:8000 and play (PORT=8080, DATA=folder)
	mkdir -p $(DATA)
	$(BIN)/karnak serve --host $(HOST) --port $(PORT) --database $(DATA)/karnak.sqlite3

play: setup  ## play in the terminal against bots (GAME=aton for Aton; PLAYERS=N)
	$(BIN)/karnak play $(GAME) $(if $(PLAYERS),--players $(PLAYERS))

test: lint typecheck unit  ## everything CI runs

lint: setup
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

format: setup
	$(BIN)/ruff check --fix src tests bench
	$(BIN)/ruff format src tests bench

typecheck: setup
	$(BIN)/mypy

unit: setup
	$(BIN)/pytest -n 2 -q

bench: setup  ## engine speed against OpenSpiel references (installs the bench extra)
	$(BIN)/pip install --quiet -e '.[dev,bench]'
	$(BIN)/python bench/engine.py

bench-server: setup  ## 200 concurrent games against a real server: latency, errors, lost moves
	$(BIN)/python bench/server_load.py --games 200 --pause 2 1 --synchronous FULL NORMAL

golden: setup  ## rewrite the golden playthroughs after an intended rules change
	$(BIN)/python tests/golden/regenerate.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
