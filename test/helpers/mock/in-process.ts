// The spec-mock suites run every command in this process, from the source: the one in-process
// runner of the test suite (../in-process-cli.ts). ~150 commands against a mock cost a few
// seconds this way instead of a minute of process starts.
export { runInProcess, sourceConfig as cliConfig, type RunResult } from '../in-process-cli.js';
