import { everyCommandAgainst } from '../helpers/mock/every-command.js';

// Every command's happy path over HTTP against a Stoplight Prism mock of the latest spec
// (the newest @gitbook/api, aliased gitbook-api-latest): see test/helpers/mock/every-command.ts.
everyCommandAgainst('latest');
