#!/usr/bin/env node
// The CLI as an ES module entry, for scripts that name bin/run.js: the `docs` command is
// bin/run.cjs (see there why it is CommonJS).
import './run.cjs';
