import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { readFileSync } from 'node:fs';
import { documentToMarkdown } from '../../src/documents/markdown.js';
import { DocsError } from '../../src/kernel/errors.js';
import type { Transport } from '../../src/transport/types.js';
import { DocsCommand } from './base.js';
import { spin } from './operation-command.js';

// What the `docs comments` commands share: every comment operation has a space form and a
// change-request form; `--change-request N` (number or id) picks the second.

export const commentArgs = {
  spaceId: Args.string({ description: 'The space (its ID)', required: true }),
  commentId: Args.string({ description: 'The comment (its ID)', required: true }),
};

export const crFlag = {
  'change-request': Flags.string({ char: 'c', description: 'the comments of this change request (number or id) instead of the space' }),
};

export const replyFlag = {
  reply: Flags.string({ description: 'act on this reply of the comment instead of the comment itself' }),
};

/** Flags for a body given as text: an argument, a file or standard input. */
export const textFlags = {
  file: Flags.string({ char: 'f', description: 'read the markdown from this file ("-": standard input)' }),
};

export abstract class CommentCommand extends DocsCommand {
  /** `Comment` → listCommentsInSpace style ids: `${verb}${noun}In${Space|ChangeRequest}`. */
  protected op(name: string, cr: string | undefined): string {
    return `${name}In${cr === undefined ? 'Space' : 'ChangeRequest'}`;
  }

  protected where(spaceId: string, cr: string | undefined, rest: Record<string, string> = {}): Record<string, string> {
    return { spaceId, ...(cr === undefined ? {} : { changeRequestId: cr }), ...rest };
  }

  protected async call(transport: Transport, operationId: string, req: { path: Record<string, string>; query?: Record<string, unknown>; body?: unknown }) {
    return spin(transport.remote, operationId, () => transport.call(operationId, req));
  }

  /** The markdown of a body: the TEXT argument, else --file (or "-": standard input). */
  protected text(arg: string | undefined, file: string | undefined): string {
    if (arg !== undefined && file !== undefined) throw new DocsError('invalid', 'text: give the text or --file, not both');
    if (arg !== undefined) return arg;
    if (file === undefined) throw new DocsError('invalid', 'text: give the comment as an argument, or --file FILE ("-": standard input)');
    if (file === '-' && process.stdin.isTTY) throw new DocsError('invalid', 'file: pipe the markdown into standard input, or give a file');
    try {
      return readFileSync(file === '-' ? 0 : file, 'utf8');
    } catch (err) {
      throw new DocsError('invalid', `file: cannot read ${file === '-' ? 'standard input' : file}: ${(err as Error).message}`);
    }
  }
}

/**
 * A comment body as text: its markdown, else its Document as markdown (a server may answer the
 * Document form even when asked for markdown: the contract allows both), else nothing.
 */
export function bodyText(body: any): string {
  if (typeof body?.markdown === 'string') return body.markdown;
  if (body?.document && typeof body.document === 'object') return documentToMarkdown(body.document);
  return '';
}

/** One line for a comment or reply in human output. */
export function summary(c: any): string {
  const first = bodyText(c.body).split('\n')[0]!;
  const reactions = (c.reactions ?? []).map((r: any) => `${r.emoji} ${r.count}`).join(' ');
  const status = c.object === 'comment' ? ` [${c.status}${c.replies ? `, ${c.replies} ${c.replies === 1 ? 'reply' : 'replies'}` : ''}]` : '';
  return `${c.id}  ${c.postedBy?.displayName ?? '?'}  ${c.postedAt}${status}${reactions ? '  ' + reactions : ''}\n    ${first.length > 100 ? first.slice(0, 97) + '...' : first}`;
}
