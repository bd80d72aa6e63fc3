import { invalid } from '../kernel/errors.js';
import { REACTIONS_PER_UPDATE_MAX, type ReactionRecord } from './model.js';

// Reactions are stored one row per (user, emoji) and shown aggregated per emoji: a user reacts
// at most once with each emoji, so adding one they already gave changes nothing (its first
// `reactedAt` stays), and removing one they never gave changes nothing either.

// Made on first use: constructing a Segmenter loads ICU's break data (~145 ms), which the first
// request of every comment operation paid when it was made at module load (issue 28 item 1).
let graphemes: Intl.Segmenter | undefined;
// An emoji: a pictograph (with its variation selectors, skin tones and ZWJ sequences, all one
// grapheme), a flag (regional indicators) or a keycap.
const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20E3/u;

export function isEmoji(s: string): boolean {
  return s.length <= 32 && [...(graphemes ??= new Intl.Segmenter('en', { granularity: 'grapheme' })).segment(s)].length === 1 && EMOJI.test(s);
}

function checked(list: readonly string[] | undefined, field: string): string[] {
  const out = [...new Set(list ?? [])];
  list?.forEach((e, i) => {
    if (!isEmoji(e)) throw invalid(`${field}[${i}]: must be a single emoji (got ${JSON.stringify(e.slice(0, 40))})`);
  });
  if (out.length > REACTIONS_PER_UPDATE_MAX) throw invalid(`${field}: at most ${REACTIONS_PER_UPDATE_MAX} different emoji per update`);
  return out;
}

/** The reactions after `user` adds and removes some; the same list (===) when nothing changed. */
export function applyReactions(
  current: readonly ReactionRecord[],
  user: string,
  added: readonly string[] | undefined,
  removed: readonly string[] | undefined,
  now: string,
): readonly ReactionRecord[] {
  const add = checked(added, 'addedReactions');
  const remove = checked(removed, 'removedReactions');
  const both = add.find((e) => remove.includes(e));
  if (both) throw invalid(`removedReactions: ${both} is also in addedReactions (give it in one of them)`);
  const mine = (e: string) => current.some((r) => r.user === user && r.emoji === e);
  const toAdd = add.filter((e) => !mine(e));
  const toRemove = remove.filter(mine);
  if (!toAdd.length && !toRemove.length) return current;
  return [...current.filter((r) => !(r.user === user && toRemove.includes(r.emoji))), ...toAdd.map((emoji) => ({ emoji, user, reactedAt: now }))];
}

/** The contract's EmojiReactions: one entry per emoji, in order of the first reaction, users in order of reacting. */
export function aggregateReactions<U>(reactions: readonly ReactionRecord[], userOf: (id: string) => U) {
  const groups = new Map<string, ReactionRecord[]>();
  const ordered = [...reactions].sort((a, b) => a.reactedAt.localeCompare(b.reactedAt));
  for (const r of ordered) {
    const g = groups.get(r.emoji);
    if (g) g.push(r);
    else groups.set(r.emoji, [r]);
  }
  return [...groups].map(([emoji, rs]) => ({ emoji, count: rs.length, users: rs.map((r) => ({ user: userOf(r.user), reactedAt: r.reactedAt })) }));
}
