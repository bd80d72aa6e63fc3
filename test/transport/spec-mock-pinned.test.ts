import { everyCommandAgainst } from '../helpers/mock/every-command.js';

// Every command's happy path over HTTP against a Stoplight Prism mock of the pinned spec
// (0.146.0, the reference): see test/helpers/mock/every-command.ts.
everyCommandAgainst('pinned');
