import { afterEach, describe, expect, it, vi } from 'vitest';
import { colorEnabled, paint } from '../../commands/_lib/color.js';
import { fitWidths, heading, relativeTime, renderList, renderObject, renderTable, type RenderOptions } from '../../commands/_lib/render.js';
import { colorPatch } from '../../commands/cr/diff.js';
import { customizeSummary } from '../../commands/sites/customize.js';

// The renderer takes the output's {tty, width, color}: here both sides of a terminal are drawn
// without one. (test/e2e/output-cli.test.ts runs the CLI itself in a pseudo-terminal.)
const NOW = Date.parse('2026-11-24T12:00:00Z');
const tty = (width: number, color = false): RenderOptions => ({ tty: true, width, color, now: NOW });
const pipe: RenderOptions = { tty: false, width: Infinity, color: false };
const ESC = '\u001b[';
// Display width of what these tests print (ASCII and "…" only).
const widthOf = (line: string) => [...line.replace(/\u001b\[[0-9;]*m/g, '')].length;

const crs = [
  {
    object: 'change-request',
    number: 12,
    id: 'VW28sU7eBxVN49Yd4jID',
    status: 'open',
    subject: 'Rewrite the whole installation guide for the new release',
    createdBy: { id: 'u1', displayName: 'Ann Lee' },
    updatedAt: '2026-11-24T09:00:00Z',
  },
  {
    object: 'change-request',
    number: 13,
    id: 'Q2xX65XUm7UlzsXxCoxF',
    status: 'draft',
    subject: 'Typo',
    createdBy: { id: 'u2', displayName: 'Bob' },
    updatedAt: '2026-11-20T12:00:00Z',
  },
];
const COLUMNS = ['number', 'id', 'status', 'subject', 'createdBy.displayName', 'updatedAt'];

describe('tables on a terminal', () => {
  it('have headers in words, no borders or row separators, relative times, names for objects', async () => {
    const out = await renderTable(crs, COLUMNS, tty(200));
    const lines = out.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^Number {2}ID {20}Status {2}Subject {2,}Created by {2}Updated$/);
    expect(lines[1]).toBe('12      VW28sU7eBxVN49Yd4jID  open    Rewrite the whole installation guide for the new release  Ann Lee     3 hr. ago');
    expect(lines[2]).toMatch(/^13 {6}Q2xX65XUm7UlzsXxCoxF {2}draft {3}Typo +Bob {9}4 days ago$/);
    expect(out).not.toMatch(/[│┌─┼]|createdBy|\{"/);
  });

  it('fit the width: long cells cut with an ellipsis, ids kept whole', async () => {
    for (const width of [100, 80, 60]) {
      const lines = (await renderTable(crs, COLUMNS, tty(width))).split('\n');
      for (const l of lines) expect(widthOf(l), `${width}: ${l}`).toBeLessThanOrEqual(width);
      expect(lines[1]).toContain('VW28sU7eBxVN49Yd4jID');
      expect(lines[1]).toMatch(/Rewri[^…]*…/);
    }
    // Narrower than the ids themselves: everything is cut, still within the width.
    for (const l of (await renderTable(crs, COLUMNS, tty(30))).split('\n')) expect(widthOf(l)).toBeLessThanOrEqual(30);
  });

  it('bold headers only when color is allowed', async () => {
    expect(await renderTable(crs, COLUMNS, tty(120, true))).toContain(`${ESC}1mNumber${ESC}22m`);
    expect(await renderTable(crs, COLUMNS, tty(120, false))).not.toContain(ESC);
  });

  it('pick readable default columns: id first, names of nested objects, no urls', async () => {
    const out = await renderTable(
      [{ object: 'x', title: 'Guide', id: 'a1', urls: { app: 'http://x' }, owner: { id: 'u1', displayName: 'Ann' }, size: 3 }],
      undefined,
      tty(120),
    );
    expect(out.split('\n')).toEqual(['ID  Title  Owner  Size', 'a1  Guide  Ann    3']);
  });
});

describe('lists off a terminal (pipes, files, CI)', () => {
  it('are tab-separated rows, no header, nothing cut, times as sent', async () => {
    const out = await renderTable(crs, COLUMNS, pipe);
    expect(out).toBe(
      '12\tVW28sU7eBxVN49Yd4jID\topen\tRewrite the whole installation guide for the new release\tAnn Lee\t2026-11-24T09:00:00Z\n' +
        '13\tQ2xX65XUm7UlzsXxCoxF\tdraft\tTypo\tBob\t2026-11-20T12:00:00Z',
    );
  });

  it('keep one row per line: tabs and newlines inside a cell become spaces', async () => {
    expect(await renderTable([{ id: 'a', title: 'two\nlines\tand a tab' }], ['id', 'title'], pipe)).toBe('a\ttwo lines and a tab');
  });

  it('print nothing on stdout when empty (the note goes to stderr); a terminal gets the note', async () => {
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect(await renderList([], ['id'], 'No tokens.', pipe)).toBe('');
    expect(err).toHaveBeenCalledWith('No tokens.\n');
    err.mockRestore();
    expect(await renderList([], ['id'], 'No tokens.', tty(80))).toBe('No tokens.');
  });
});

describe('headers and widths', () => {
  it('name columns in words', () => {
    expect(
      [
        'id',
        'title',
        'createdBy.displayName',
        'updatedAt',
        'lastSeenAt',
        'space.id',
        'urls.published',
        'comment.body.markdown',
        'processingState',
        'service.startURL',
        'purge at',
        'space_selection',
        'user.email',
      ].map(heading),
    ).toEqual([
      'ID',
      'Title',
      'Created by',
      'Updated',
      'Last seen',
      'Space ID',
      'Published URL',
      'Comment',
      'Processing state',
      'Service start URL',
      'Purge at',
      'Space selection',
      'Email',
    ]);
  });

  it('cut the widest columns first and keep ids', () => {
    expect(fitWidths([20, 50, 6], [true, false, false], 100)).toEqual([20, 50, 6]);
    expect(fitWidths([20, 50, 6], [true, false, false], 50)).toEqual([20, 20, 6]);
    expect(fitWidths([20, 50, 14, 6], [true, false, false, false], 60)).toEqual([20, 14, 14, 6]);
  });

  it('say times relative to now', () => {
    expect(relativeTime('2026-11-24T09:00:00Z', NOW)).toBe('3 hours ago');
    expect(relativeTime('2026-12-01T12:00:00Z', NOW)).toBe('in 7 days');
    expect(relativeTime('2026-11-23T12:00:00Z', NOW)).toBe('yesterday');
    expect(relativeTime('2026-11-24T11:59:50Z', NOW)).toBe('just now');
    expect(relativeTime('2026-11-24T09:00:00Z', NOW, true)).toBe('3 hr. ago');
    expect(relativeTime('2025-11-20T12:00:00Z', NOW, true)).toBe('1 yr. ago');
  });
});

const space = {
  object: 'space',
  id: 'a5G78WRnyMZLfqXE5LTZ',
  title: 'Acme Docs',
  emoji: '',
  visibility: 'private',
  createdAt: '2026-11-24T09:00:00.305Z',
  parent: null,
  mergeRules: { type: 'inherit' },
  urls: { location: 'http://127.0.0.1:7780/v1/spaces/a5G78WRnyMZLfqXE5LTZ', app: 'http://127.0.0.1:7780/o/org/s/a5G78WRnyMZLfqXE5LTZ' },
  permissions: { view: true, access: true, admin: false, viewInviteLinks: true, edit: true },
  siteSpaces: [{ id: 's1', title: 'One' }, { id: 's2', title: 'Two' }, { id: 's3' }, { id: 's4' }],
  structure: { sections: [{ id: 'x' }], groups: { a: { b: { c: 1 } } } },
  createdBy: { object: 'user', id: 'u1', displayName: 'Ann Lee', email: 'ann@acme.com' },
  adaptiveContent: { enabled: false },
};

describe('one object', () => {
  it('on a terminal: a summary in words, nested objects indented or counted, never JSON, a hint to --json', () => {
    const out = renderObject(space, tty(100));
    expect(out).not.toMatch(/[{}[\]"]/);
    expect(out.split('\n')).toEqual([
      'ID                a5G78WRnyMZLfqXE5LTZ',
      'Title             Acme Docs',
      'Visibility        private',
      'Created           2026-11-24T09:00:00Z (3 hours ago)',
      'Parent            none',
      'Merge rules       type: inherit',
      'URLs',
      '  Location  http://127.0.0.1:7780/v1/spaces/a5G78WRnyMZLfqXE5LTZ',
      '  App       http://127.0.0.1:7780/o/org/s/a5G78WRnyMZLfqXE5LTZ',
      'Permissions       view, access, view invite links, edit',
      'Site spaces       4 items',
      'Structure',
      '  Sections  1 item',
      '  Groups',
      '    A  1 field',
      'Created by        Ann Lee <ann@acme.com> (u1)',
      'Adaptive content  enabled: false',
      '(--json prints every field)',
    ]);
    expect(renderObject(space, tty(100, true))).toContain(`${ESC}2m(--json prints every field)${ESC}22m`);
  });

  it('off a terminal: key<TAB>value lines with dotted keys, lists counted', () => {
    const lines = renderObject(space, pipe).split('\n');
    expect(lines).toContain('title\tAcme Docs');
    expect(lines).toContain('urls.app\thttp://127.0.0.1:7780/o/org/s/a5G78WRnyMZLfqXE5LTZ');
    expect(lines).toContain('permissions.admin\tfalse');
    expect(lines).toContain('siteSpaces\t4 items');
    expect(lines).toContain('createdAt\t2026-11-24T09:00:00.305Z');
    expect(lines).toContain('parent\t');
    expect(lines.join('\n')).not.toMatch(/[{}"]|--json/);
  });
});

describe('colors', () => {
  const saved = process.env.NO_COLOR;
  afterEach(() => (saved === undefined ? delete process.env.NO_COLOR : (process.env.NO_COLOR = saved)));

  it('only on a terminal, and never with NO_COLOR set to anything, even empty', () => {
    delete process.env.NO_COLOR;
    expect(colorEnabled({ isTTY: true })).toBe(true);
    expect(colorEnabled({ isTTY: false })).toBe(false);
    for (const v of ['1', '', 'false']) {
      process.env.NO_COLOR = v;
      expect(colorEnabled({ isTTY: true })).toBe(false);
    }
  });

  it('cr diff: headers bold, hunks cyan, + green, - red; plain text unchanged', () => {
    const patch = '--- a/guide\n+++ b/guide\n@@ -1,3 +1,2 @@\n # Guide\n-Line one.\n--- dashes\n+Line one changed.';
    expect(colorPatch(patch, paint(false))).toBe(patch);
    expect(colorPatch(patch, paint(true)).split('\n')).toEqual([
      `${ESC}1m--- a/guide${ESC}22m`,
      `${ESC}1m+++ b/guide${ESC}22m`,
      `${ESC}36m@@ -1,3 +1,2 @@${ESC}39m`,
      ' # Guide',
      `${ESC}31m-Line one.${ESC}39m`,
      `${ESC}31m--- dashes${ESC}39m`,
      `${ESC}32m+Line one changed.${ESC}39m`,
    ]);
  });
});

describe('sites customize without --json', () => {
  it('says what was set, with the values stored, in a few lines', () => {
    const stored = { styling: { primaryColor: { light: '#1f6feb', dark: '#346ddb' }, theme: 'bold' }, announcement: { enabled: true, message: 'v2 is out' } };
    expect(customizeSummary('site1', { set: ['styling.primaryColor.light=#1f6feb', 'announcement={"enabled":true,"message":"v2 is out"}'] }, stored)).toBe(
      [
        'Updated the customization of site site1:',
        '  styling.primaryColor.light  #1f6feb',
        '  announcement.enabled        true',
        '  announcement.message        v2 is out',
        'All of it: docs sites customization site1 (or add --json).',
      ].join('\n'),
    );
    const override = customizeSummary('site1', { 'site-space': 'ss1', set: ['styling.theme=null'], file: 'over.json' }, { styling: {} });
    expect(override.split('\n')).toEqual([
      'Updated the overrides of site space ss1 on site site1:',
      '  from over.json (1 top-level field stored)',
      "  styling.theme  reset (the site's value)",
      'All of it: add --json.',
    ]);
  });
});
