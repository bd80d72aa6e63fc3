import { createHash } from 'node:crypto';
import type { AskQuestionRecord } from '../ask/model.js';
import type { Terms } from '../conversations/model.js';
import { addTerms, cosine, topTerms } from '../conversations/vectors.js';
import { contentWords, plainText, termVector } from '../conversations/words.js';
import type { ContextRecordRow } from './model.js';
import type { ScanPage } from './scan-inputs.js';

// Topics (docs/manual/site-findings.md#topics): the site's questions and records grouped by what
// they are about, with the conversations engine's method (src/conversations: stemmed content
// words, sublinear term vectors, leader-follower clustering at cosine JOIN). Items are taken
// oldest first (a question by when it was first asked, a record by when it was stored), so the
// first item of a topic stays its first as evidence is added, and the topic's key (its first
// item) and id stay the same from one scan to the next.

/** The similarity an item needs to a topic's centroid to join it (the conversations engine's JOIN). */
export const TOPIC_JOIN = 0.3;
/** The similarity a page needs to a topic's centroid to be one of its pages. */
export const PAGE_JOIN = 0.15;
/** The similarity a document record needs to a page to be about it (the outdated-page rule). */
export const RECORD_PAGE_JOIN = 0.2;

export interface EvidenceItem {
  kind: 'question' | 'record';
  id: string;
  /** The text searched and shown: the question, or the record's title and description. */
  text: string;
  at: string;
  /** How much it weighs: a question's count of asks, a record 1. */
  weight: number;
  vector: Terms;
  display: Record<string, string>;
  question?: AskQuestionRecord;
  record?: ContextRecordRow;
}

export interface TopicDraft {
  key: string;
  items: EvidenceItem[];
  centroid: Terms;
  label: string;
  /** Its pages, the nearest first: [page, similarity]. */
  pages: { page: ScanPage; similarity: number }[];
}

const hash = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 20);
export const topicId = (site: string, key: string) => `${site}:t${hash(key)}`;
export const findingId = (site: string, key: string) => `${site}:f${hash(key)}`;

function vectorOf(text: string): { vector: Terms; display: Record<string, string> } {
  const words = contentWords(plainText(text));
  const counts = new Map<string, Map<string, number>>();
  for (const w of words) {
    const m = counts.get(w.stem) ?? new Map<string, number>();
    m.set(w.word, (m.get(w.word) ?? 0) + 1);
    counts.set(w.stem, m);
  }
  const display: Record<string, string> = {};
  for (const [stem, m] of counts) display[stem] = [...m].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]![0];
  return { vector: termVector(words), display };
}

export function evidenceItems(questions: readonly AskQuestionRecord[], records: readonly ContextRecordRow[]): EvidenceItem[] {
  const items: EvidenceItem[] = [];
  for (const q of questions)
    items.push({ kind: 'question', id: q.id, text: q.text, at: q.firstAskedAt, weight: Math.max(1, q.count), ...vectorOf(q.text), question: q });
  for (const r of records) {
    const text = [r.title, r.description].filter(Boolean).join('. ');
    // The body counts for what the record is about; the title and description are what is shown.
    items.push({ kind: 'record', id: r.id, text, at: r.createdAt, weight: 1, ...vectorOf(`${text}\n${r.body}`), record: r });
  }
  return items.sort((a, b) => a.at.localeCompare(b.at) || a.id.localeCompare(b.id));
}

export function pageVector(p: ScanPage): Terms {
  return vectorOf(`${p.node.title}\n${p.node.description ?? ''}\n${p.markdown}`).vector;
}

/** The topics of the evidence: each item joins the most similar topic (ties: the older), or starts one. */
export function clusterTopics(items: readonly EvidenceItem[], pages: readonly ScanPage[], pageVectors: Map<ScanPage, Terms>): TopicDraft[] {
  const topics: { key: string; items: EvidenceItem[]; centroid: Terms }[] = [];
  for (const item of items) {
    if (!Object.keys(item.vector).length) continue; // nothing to group by: no topic
    let best: { t: (typeof topics)[number]; sim: number } | undefined;
    for (const t of topics) {
      const sim = cosine(item.vector, t.centroid);
      if (sim >= TOPIC_JOIN && (!best || sim > best.sim)) best = { t, sim };
    }
    if (best) {
      best.t.items.push(item);
      best.t.centroid = addTerms(best.t.centroid, item.vector);
    } else topics.push({ key: `${item.kind}:${item.id}`, items: [item], centroid: { ...item.vector } });
  }
  return topics.map((t) => {
    const display: Record<string, string> = {};
    for (const i of t.items) for (const [k, w] of Object.entries(i.display)) display[k] ??= w;
    const words = topTerms(t.centroid, 3).map((s) => display[s] ?? s);
    const label = words.length ? words[0]!.charAt(0).toUpperCase() + words[0]!.slice(1) + (words.length > 1 ? `, ${words.slice(1).join(', ')}` : '') : 'Other';
    const near = pages
      .map((page) => ({ page, similarity: cosine(t.centroid, pageVectors.get(page)!) }))
      .filter((x) => x.similarity >= PAGE_JOIN)
      .sort((a, b) => b.similarity - a.similarity || a.page.space.id.localeCompare(b.page.space.id) || a.page.node.id.localeCompare(b.page.node.id));
    return { key: t.key, items: t.items, centroid: t.centroid, label, pages: near };
  });
}
