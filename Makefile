# Every target is one line, so people and CI run the same commands. `make help` lists them.
.DEFAULT_GOAL := help
.PHONY: help setup setup-test setup-cluster run run-cluster test checks lint fmt types test-py test-py-shared test-py-alone test-ui lint-ui ui-eslint ui-prettier ui-tsc check-api test-ui-run test-release ui wheel migration db-check bench api-schema

ARGS ?=

help: ## list the targets
	@awk 'BEGIN {FS = ":.*## "} /^[a-z-]+:.*## / {printf "  \033[36m%-11s\033[0m %s\n", $$1, $$2}' $(MAKEFILE_LIST)

# A make started by another one here (SETUP_DONE=1) does not check the setup again: its parent did.
setup: ## what running needs: Debian packages (as root), a Python >= 3.12, uv, .venv, npm packages; idempotent
	@$(if $(SETUP_DONE),:,scripts/setup)

setup-test: ## setup and what the tests start (PostgreSQL, Redis, sshd, slapd, Chromium, PCP, an OIDC provider)
	@$(if $(SETUP_DONE),:,scripts/setup --test)

run: setup ui ## steward doctor --brief (a summary, then what is not ok), then the console on SQLite at http://127.0.0.1:8080 (steward serve)
	.venv/bin/steward doctor --brief; .venv/bin/steward serve

run-cluster: setup-cluster ui ## Redis, PostgreSQL, 2 workers and 2 servers (:8080, :8081) on 127.0.0.1 (docs/deploy.md)
	scripts/run-cluster

setup-cluster:
	@scripts/setup --cluster

ui: setup frontend/dist/index.html ## build the web console if its sources changed

wheel: ui ## the release: dist/steward-<version>-py3-none-any.whl with the console inside (docs/install.md)
	scripts/build-wheel

frontend/dist/index.html: frontend/package-lock.json frontend/index.html frontend/vite.config.ts $(shell find frontend/src -type f 2>/dev/null)
	cd frontend && npm run build

test: setup-test checks test-py test-ui-run test-release ## everything CI runs: the checks, pytest, console, the wheel

# The checks that start no server and use one core each, two at a time (the longest first, so
# both cores end nearly together): about half the time of one after the other. Their output is
# printed whole, one check after the other, as each ends.
checks: setup-test ## lint, types, db-check, the console's eslint/prettier/tsc and API client, two at a time
	$(MAKE) --no-print-directory -j2 --output-sync=target SETUP_DONE=1 ui-eslint types ui-tsc ui-prettier check-api db-check lint

lint: setup ## ruff check and ruff format --check
	.venv/bin/ruff check . && .venv/bin/ruff format --check .

fmt: setup ## format and autofix with ruff
	.venv/bin/ruff format . && .venv/bin/ruff check --fix .

types: setup ## mypy (strict, per pyproject)
	.venv/bin/mypy $(wildcard src tests bench) && .venv/bin/mypy bench/api.py

test-py: setup-test ## pytest: SQLite, and PostgreSQL for the tests marked both_databases; coverage >= 92% (STEWARD_TEST_DB=sqlite|postgres|both; ARGS="-k x" to pass args, no coverage then)
	$(MAKE) --no-print-directory SETUP_DONE=1 test-py-shared
	$(MAKE) --no-print-directory SETUP_DONE=1 test-py-alone

# the suite on both cores, three workers: a third of a worker's time is waiting (real runs,
# servers starting, leases, sleeps), so two left the cores idle ~35 % of the time (measured:
# 770 s of CPU for a 604 s run on 2 cores); a fourth would only contend for them
test-py-shared: setup-test
	COVERAGE_CORE=sysmon .venv/bin/pytest -n 3 --dist loadgroup -m "not alone and not release" --durations=15 --junitxml=test-artifacts/pytest-shared.xml $(if $(ARGS),,--cov --cov-report=) $(ARGS)

# the tests that measure the whole machine, with nothing beside them
test-py-alone: setup-test
	COVERAGE_CORE=sysmon .venv/bin/pytest -m alone --junitxml=test-artifacts/pytest-alone.xml $(if $(ARGS),,--cov --cov-append --cov-fail-under=92) $(ARGS); s=$$?; [ $$s -eq 0 ] || [ $$s -eq 5 ]

test-release: wheel ## the wheel installed with `uv tool install` outside the checkout: serve, a real run, the console
	.venv/bin/pytest -m release -p no:cacheprovider tests/release

test-ui: lint-ui check-api test-ui-run ## console: eslint/prettier/tsc, API client up to date, vitest, Playwright e2e, bundle size

lint-ui: ui-eslint ui-prettier ui-tsc ## the console's eslint, prettier --check and tsc (npm run lint)

ui-eslint: setup
	cd frontend && npm run lint:eslint

ui-prettier: setup
	cd frontend && npm run lint:format

ui-tsc: setup
	cd frontend && npm run typecheck

check-api: setup
	cd frontend && npm run check:api

# what test-ui runs past the checks (`make test` runs those in `checks`)
test-ui-run: setup-test
	cd frontend && npm test && npm run e2e && npm run size

migration: setup ## a new schema revision from the models' changes: make migration MESSAGE="what changes"
	.venv/bin/python scripts/new-migration.py "$(MESSAGE)"

db-check: setup ## migrate an empty database to head, then fail if models and migrations disagree
	.venv/bin/python scripts/db-check.py

# each benchmark prints its own table; bench/README.md has the method
BENCHES := runner_floor runs_list hosts_view host_health ui schedules_due ingest metrics_storage metrics_cost facts_storage api startup plan_page plan_cost
bench: setup-test ## the benchmarks: runs vs bare ansible-playbook (ARGS to it), then each of BENCHES (runs list, hosts view, a health pass over 1,000 hosts, console, schedules, ingest, host metrics, facts storage, one API request, the start and idle memory of the server, a plan page of 200 hosts x 50 tasks, a plan beside a run)
	.venv/bin/python bench/run.py $(ARGS) && for b in $(BENCHES); do .venv/bin/python bench/$$b.py || exit 1; done

api-schema: setup ## regenerate frontend/openapi.json and the typed client from the server
	cd frontend && npm run gen:api
