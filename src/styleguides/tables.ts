import { table } from '../store/port.js';
import type { StyleguideRunRecord } from './model.js';

// The tables this area owns (see Table in src/store/port.ts): style guide check runs (docs/manual/styleguides.md).

export const StyleguideRuns = table<StyleguideRunRecord, 'organization' | 'site'>('styleguideRuns');
