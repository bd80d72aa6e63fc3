import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { defineOperation } from '../kernel/operation.js';
import { packageRoot } from '../kernel/root.js';

// GET /v1/ (getApiInformation): "the release version and build date of the codebase". Here, the
// version of this package and the time its contract artifacts were built (npm install / npm run
// build), both read once.

let info: { version: string; build: string } | undefined;

function read(): { version: string; build: string } {
  const root = packageRoot();
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  return { version, build: statSync(join(root, 'generated', 'contract', 'routes.json')).mtime.toISOString() };
}

export const getApiInformation = defineOperation('getApiInformation', () => ({ status: 200, body: (info ??= read()) }));
