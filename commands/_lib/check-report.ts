import type { CheckResult, Problem } from './content-check.js';

// How `docs content check` prints its problems: one `file:line: message` line each (as
// compilers and linters do, so editors and terminals link them), GitHub annotations
// (`::error file=...,line=...::message`: shown on the pull request's diff), or a JUnit XML
// report (what most CI systems show as test results).

export const FORMATS = ['text', 'github', 'junit'] as const;
export type Format = (typeof FORMATS)[number];

const located = (p: Problem) => `${p.file}${p.line ? `:${p.line}` : ''}`;
export const problemLine = (p: Problem) => `${located(p)}: ${p.message}`;

// GitHub workflow commands: data escapes %, CR, LF; properties also : and ,.
const esc = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escProp = (s: string) => esc(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
const githubLine = (p: Problem) =>
  `::error file=${escProp(p.file)}${p.line ? `,line=${p.line}` : ''},title=${escProp(`docs content check (${p.kind})`)}::${esc(p.message)}`;

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** What is checked, in words: `./docs`, `space S`, `change request 4 of space S`. */
export function targetLabel(r: CheckResult): string {
  const t = r.target as { dir?: string; space?: string; changeRequest?: string };
  if (t.dir !== undefined) return t.dir;
  return t.changeRequest ? `change request ${/^\d+$/.test(t.changeRequest) ? '#' : ''}${t.changeRequest} of space ${t.space}` : `space ${t.space}`;
}

/** One test case per problem (a passing one when there is none), in one suite named for the target. */
function junit(r: CheckResult): string {
  const name = xml(`docs content check ${targetLabel(r)}`);
  const cases = r.problems.length
    ? r.problems.map(
        (p) =>
          `    <testcase classname="${xml(p.file)}" name="${xml(`${located(p)} ${p.kind}`)}" file="${xml(p.file)}"${p.line ? ` line="${p.line}"` : ''}>\n      <failure type="${p.kind}" message="${xml(p.message)}">${xml(problemLine(p))}</failure>\n    </testcase>`,
      )
    : [`    <testcase classname="docs content check" name="${name}"/>`];
  const n = Math.max(r.problems.length, 1);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="docs content check" tests="${n}" failures="${r.problems.length}">`,
    `  <testsuite name="${name}" tests="${n}" failures="${r.problems.length}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
  ].join('\n');
}

/** The report on stdout, in a format; empty lines are not printed. */
export function report(r: CheckResult, format: Format): string[] {
  if (format === 'junit') return [junit(r)];
  return r.problems.map(format === 'github' ? githubLine : problemLine);
}

/** The closing line (stderr): how many problems, or what was found clean. */
export function verdict(r: CheckResult): string {
  const n = r.problems.length;
  if (n) return `${n} problem${n === 1 ? '' : 's'} in ${targetLabel(r)}`;
  const c = r.counts;
  const what =
    c.links !== undefined
      ? `${c.links} link${c.links === 1 ? '' : 's'}`
      : `${c.pages} page${c.pages === 1 ? '' : 's'}, ${c.files} file${c.files === 1 ? '' : 's'}`;
  const ext = c.external === undefined ? '' : `, ${c.external} external link${c.external === 1 ? '' : 's'}`;
  return `No problems in ${targetLabel(r)} (${what}${ext} checked).`;
}
