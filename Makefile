# Two commands do all set-up: `make run` (the main job) and `make test` (the whole suite).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test browser nginx lint typecheck pytest clean messages translations

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,rl,cluster]'
	$(BIN)/pybabel compile --statistics -d src/campfire/locale -D campfire
	touch $(STAMP)

# the game server and browser table at http://127.0.0.1:8000, tables kept in data/ (SQLite)
run: $(STAMP)
	$(BIN)/campfire serve --host 127.0.0.1 --port 8000 --db sqlite:///data/campfire.sqlite3

# the deployment test (tests/server/test_deploy.py) runs Debian's nginx: installed here when it
# is missing, without letting the package start a service of its own
nginx:
	@test -x /usr/sbin/nginx || $(PYTHON) -m benchmarks.cluster --install-nginx

# the browser tests drive Debian's Chromium: installed here when it is missing
browser:
	@set -e; if [ ! -x /usr/bin/chromium ]; then \
		sudo_cmd=""; \
		if [ "$$(id -u)" -ne 0 ]; then sudo_cmd="sudo"; fi; \
		$$sudo_cmd apt-get update; \
		DEBIAN_FRONTEND=noninteractive $$sudo_cmd apt-get install -y chromium; \
	fi

test: $(STAMP) browser nginx
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/mypy
	$(BIN)/pytest -n 2

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis

# the catalogues: `make messages` extracts the template (campfire.pot) from the Python, the page
# templates and the scripts, and merges it into every language's .po; `make translations`
# compiles the .po files into the .mo files the program reads (the install does it too)
messages: $(STAMP)
	$(BIN)/pybabel extract -F babel.cfg -k NC_:1c,2 --no-location --sort-output -w 100 \
		--project campfire -o src/campfire/locale/campfire.pot .
	$(BIN)/pybabel update --no-fuzzy-matching -w 100 -i src/campfire/locale/campfire.pot \
		-d src/campfire/locale -D campfire

translations: $(STAMP)
	$(BIN)/pybabel compile --statistics -d src/campfire/locale -D campfire
