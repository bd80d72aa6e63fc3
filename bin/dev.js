#!/usr/bin/env node
// Rebuilds (contract, TypeScript, command manifest), then runs the CLI: for working on the code.
import { execSync } from 'node:child_process';
execSync('npm run build --silent', { cwd: new URL('..', import.meta.url), stdio: 'inherit' });
await import('./run.js');
