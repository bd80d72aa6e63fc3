import { documentToMarkdown } from '../documents/markdown.js';
import type { Caller } from '../kernel/context.js';
import { DocsError } from '../kernel/errors.js';
import type { MergeRules } from '../organizations/model.js';
import type { SpaceRecord } from '../spaces/model.js';
import type { ReadTx } from '../store/port.js';
import type { ChangeRequestRecord } from './model.js';
import { currentReviews, pendingRequests } from './reviews.js';
import { Organizations } from '../organizations/tables.js';

// Merge rules (the contract's MergeRules): a space's own rules, or with `inherit` its
// organization's; `none` (or no rule) lets a change request merge on the merge permission alone.
// Every rule must pass, unless the caller is named by an `allow_bypass` rule. An unmet rule is a
// 412 (precondition failed: the request is right, the change request is not ready), naming the
// first unmet rule and what is missing. Only reviews that stand (not outdated) count.

type Rule = Extract<MergeRules, { type: 'rules' }>['rules'][number];

/** The rules that apply to merges in the space. */
export function effectiveMergeRules(tx: ReadTx, space: SpaceRecord): MergeRules {
  const own = space.mergeRules;
  if (own.type !== 'inherit') return own;
  return tx.get(Organizations, space.organization)?.mergeRules ?? { type: 'none' };
}

/** Why a rule is not met, or undefined when it is. */
function unmet(tx: ReadTx, space: SpaceRecord, cr: ChangeRequestRecord, rule: Rule): string | undefined {
  const approvals = () =>
    new Set(
      currentReviews(tx, cr)
        .filter((r) => r.status === 'approved')
        .map((r) => r.reviewer),
    );
  // The creator cannot review their own change request: a rule naming them asks nothing of them.
  const named = () => (rule.users ?? []).filter((u) => u !== cr.createdBy);
  switch (rule.rule) {
    case 'require_specific_reviewers': {
      const missing = named().filter((u) => !approvals().has(u));
      return missing.length ? `approval from ${missing.join(', ')} is missing` : undefined;
    }
    case 'require_one_of_specific_reviewers': {
      const users = named();
      return users.length && !users.some((u) => approvals().has(u)) ? `an approval from one of ${users.join(', ')} is missing` : undefined;
    }
    case 'require_at_least_one_review':
      return approvals().size ? undefined : 'no approving review on the current revision';
    case 'require_all_reviews_approved': {
      const against = currentReviews(tx, cr)
        .filter((r) => r.status === 'changes-requested')
        .map((r) => r.reviewer);
      if (against.length) return `changes requested by ${against.join(', ')}`;
      const waiting = pendingRequests(tx, cr).map((q) => q.user);
      return waiting.length ? `review requested from ${waiting.join(', ')} is still pending` : undefined;
    }
    case 'require_up_to_date_change_request': {
      const base = cr.revisionMergedAncestor ?? cr.revisionInitial;
      return base === space.revision ? undefined : 'the space changed since the change request was last updated (update it first)';
    }
    case 'require_change_request_subject':
      return cr.subject.trim() ? undefined : 'the change request has no subject';
    case 'require_change_request_description':
      return cr.description && documentToMarkdown(cr.description as Parameters<typeof documentToMarkdown>[0]).trim()
        ? undefined
        : 'the change request has no description';
    case 'require_agent_review':
      return 'no agent reviews exist on this server';
    case 'custom':
      return 'custom expressions are not evaluated by this server';
    case 'allow_bypass':
      return undefined;
    default:
      return `unknown rule ${rule.rule}`;
  }
}

/**
 * 412 unless the change request satisfies the merge rules of the space, or the caller may bypass
 * them. Called at the start of a merge (src/change-requests/service.ts).
 */
export function requireMergeRules(tx: ReadTx, space: SpaceRecord, cr: ChangeRequestRecord, caller?: Caller): void {
  const rules = effectiveMergeRules(tx, space);
  if (rules.type !== 'rules') return;
  const bypass = rules.rules.some((r) => r.rule === 'allow_bypass' && caller && (r.users ?? []).includes(caller.userId));
  if (bypass) return;
  for (const [i, rule] of rules.rules.entries()) {
    const why = unmet(tx, space, cr, rule);
    if (why) {
      const from = space.mergeRules.type === 'inherit' ? "the organization's mergeRules" : 'mergeRules';
      throw new DocsError('precondition', `merge rule ${rule.rule} (${from}.rules[${i}]) is not met: ${why}`);
    }
  }
}
