import { lstatSync, mkdirSync, readFileSync, readlinkSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PullTarget } from '../../commands/_lib/pull-target.js';
import { tempDir } from '../helpers/server.js';

// How `docs content pull` writes a file (issue 28 item 2): a file that already holds the bytes is
// left as it is (no truncate: on ext4 truncating a file with data makes its close wait for the
// disk), another is overwritten in place and cut to its length; links are still replaced, never
// followed; each folder is checked once.

const OLD = new Date('2001-01-01T00:00:00Z');

describe('PullTarget.write', () => {
  it('leaves a file holding the same bytes untouched, and writes the others byte for byte', () => {
    const dir = tempDir('docs-pull-write-');
    mkdirSync(join(dir, 'a'));
    writeFileSync(join(dir, 'a', 'same.md'), '# Same\n\nbody\n');
    writeFileSync(join(dir, 'a', 'longer.md'), '# A much longer file than the one written now\n\n'.repeat(20));
    writeFileSync(join(dir, 'a', 'shorter.md'), 'x');
    writeFileSync(join(dir, 'a', 'sized.md'), 'abcd');
    writeFileSync(join(dir, 'a', 'emptied.md'), 'was here');
    for (const f of ['same.md', 'longer.md', 'shorter.md', 'sized.md', 'emptied.md']) utimesSync(join(dir, 'a', f), OLD, OLD);
    const t = new PullTarget(dir);
    t.write('a/same.md', '# Same\n\nbody\n');
    t.write('a/longer.md', 'short\n');
    t.write('a/shorter.md', Buffer.from('a longer body é\n'));
    t.write('a/sized.md', 'wxyz');
    t.write('a/emptied.md', '');
    t.write('a/b/c/new.md', 'new\n');
    const mtime = (f: string) => statSync(join(dir, 'a', f)).mtime.getTime();
    expect(mtime('same.md')).toBe(OLD.getTime());
    expect(readFileSync(join(dir, 'a', 'same.md'), 'utf8')).toBe('# Same\n\nbody\n');
    expect(readFileSync(join(dir, 'a', 'longer.md'), 'utf8')).toBe('short\n');
    expect(readFileSync(join(dir, 'a', 'shorter.md'), 'utf8')).toBe('a longer body é\n');
    expect(readFileSync(join(dir, 'a', 'sized.md'), 'utf8')).toBe('wxyz');
    expect(readFileSync(join(dir, 'a', 'emptied.md'), 'utf8')).toBe('');
    expect(readFileSync(join(dir, 'a', 'b', 'c', 'new.md'), 'utf8')).toBe('new\n');
    for (const f of ['longer.md', 'shorter.md', 'sized.md', 'emptied.md']) expect(mtime(f)).not.toBe(OLD.getTime());
  });

  it.skipIf(process.platform === 'win32')('replaces a link in a file’s place (even one to a file with the same bytes), never writing through it', () => {
    const dir = tempDir('docs-pull-write-');
    const outside = tempDir('docs-pull-write-outside-');
    writeFileSync(join(outside, 'target.md'), 'same\n');
    symlinkSync(join(outside, 'target.md'), join(dir, 'page.md'));
    symlinkSync(join(outside, 'nowhere.md'), join(dir, 'dangling.md'));
    const t = new PullTarget(dir);
    t.write('page.md', 'same\n');
    t.write('dangling.md', 'x\n');
    expect(lstatSync(join(dir, 'page.md')).isSymbolicLink()).toBe(false);
    expect(readFileSync(join(dir, 'page.md'), 'utf8')).toBe('same\n');
    expect(lstatSync(join(dir, 'dangling.md')).isFile()).toBe(true);
    expect(readFileSync(join(outside, 'target.md'), 'utf8')).toBe('same\n');
    expect(() => readlinkSync(join(dir, 'page.md'))).toThrow();
  });
});
