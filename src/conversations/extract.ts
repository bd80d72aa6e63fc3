import type { ConversationRecord, Terms } from './model.js';
import { addTerms, cosine, cut } from './vectors.js';
import { contentWords, firstSentence, plainText, termVector } from './words.js';

// Issues of a conversation, by a deterministic method (docs/manual/conversations.md):
// only what the user wrote counts (assistants and team members answer, they do not report).
// The user's messages are read in order and grouped into segments: a message with at least
// TOPIC_WORDS content words whose similarity to the current segment is below NEW_TOPIC starts a
// new segment (the user moved to another subject); shorter messages ("still broken", "any news?")
// follow up on the current one. Each segment is one issue; at most MAX_ISSUES per conversation.

export const TOPIC_WORDS = 4;
export const NEW_TOPIC = 0.1;
export const MAX_ISSUES = 5;
const TITLE_MAX = 120;
const SUMMARY_MAX = 500;

export interface ExtractedIssue {
  title: string;
  summary: string;
  terms: Terms;
  /** stem -> the first word seen for it, to show terms as people wrote them. */
  display: Record<string, string>;
}

interface Segment {
  texts: string[];
  terms: Terms;
  display: Record<string, string>;
}

export function extractIssues(c: Pick<ConversationRecord, 'subject' | 'parts'>): ExtractedIssue[] {
  const segments: Segment[] = [];
  for (const part of c.parts) {
    if (part.role !== 'user') continue;
    const text = plainText(part.body);
    const words = contentWords(text);
    if (!words.length) continue;
    const terms = termVector(words);
    const current = segments[segments.length - 1];
    const newTopic = !current || (words.length >= TOPIC_WORDS && cosine(terms, current.terms) < NEW_TOPIC && segments.length < MAX_ISSUES);
    const seg = newTopic ? { texts: [], terms: {}, display: {} } : current!;
    if (newTopic) segments.push(seg);
    seg.texts.push(text);
    seg.terms = addTerms(seg.terms, terms);
    for (const w of words) seg.display[w.stem] ??= w.word;
  }
  return segments.map((seg, i) => {
    const all = seg.texts.join(' ');
    const subject = c.subject?.trim();
    return {
      title: i === 0 && subject ? cut(subject, TITLE_MAX) : firstSentence(seg.texts[0]!, TITLE_MAX),
      summary: cut(all, SUMMARY_MAX),
      terms: seg.terms,
      display: seg.display,
    };
  });
}
