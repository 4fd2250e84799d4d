#!/bin/sh
# setup.sh: install the viewer tests' npm packages (speedscope, playwright-core, ajv;
# versions pinned in package-lock.json) into tests/viewers/node_modules when they are
# missing or stale. Run by tests/run-suite before the tests; idempotent. The tests
# themselves never touch the network: without these packages they are skipped.
set -eu
cd "$(dirname "$0")"
if ! command -v npm >/dev/null 2>&1; then
	echo "tests/viewers/setup.sh: npm is missing; the viewer tests will be skipped" >&2
	exit 0
fi
stamp=node_modules/.proftool-package-lock.json
if ! { test -f "$stamp" && cmp -s package-lock.json "$stamp"; }; then
	npm ci --no-audit --no-fund --loglevel=error
	cp package-lock.json "$stamp"
fi
# the heap tests' reference (t4050): memlab's heap model, pinned, not saved to
# package.json; --ignore-scripts and PUPPETEER_SKIP_DOWNLOAD keep its puppeteer
# dependency from downloading a browser (about 80 MB installed).
# t4060's reference: Chrome DevTools' own heap snapshot worker (chrome-devtools-frontend,
# TypeScript only, about 80 MB), bundled for node by esbuild into one git-ignored module
# (devtools-heap.mjs --build). One npm install names all of them: a --no-save install
# drops the packages an earlier one added.
if ! test -f node_modules/@memlab/core/package.json ||
	! test -f node_modules/chrome-devtools-frontend/package.json ||
	! test -f node_modules/esbuild/package.json; then
	PUPPETEER_SKIP_DOWNLOAD=1 npm install --no-save --ignore-scripts --no-audit \
		--no-fund --loglevel=error @memlab/core@2.0.5 \
		chrome-devtools-frontend@1.0.1705227 esbuild@0.25.0
	rm -f node_modules/.proftool-devtools-heap-worker.mjs
fi
if ! test -f node_modules/.proftool-devtools-heap-worker.mjs; then
	PROFTOOL_VIEWERS_MODULES=$(pwd)/node_modules node devtools-heap.mjs --build
fi
