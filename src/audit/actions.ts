// The action name of an operation's audit events, derived from its operation id, so the map is
// total and stable (docs/manual/audit.md#action-names): `<scope>.<resource>.<verb in the past>`,
// the scope being what follows In/To/From/On (`postCommentInChangeRequest` ->
// `change-request.comment.created`), `ById`/`BySlug` dropped, words in kebab case.
// `listOrganizationAuditEventActions` lists the action of every write operation served.

const PAST: Record<string, string> = {
  add: 'added',
  aggregate: 'aggregated',
  apply: 'applied',
  ask: 'asked',
  bulk: 'bulk-updated',
  cancel: 'cancelled',
  create: 'created',
  delete: 'deleted',
  disable: 'disabled',
  duplicate: 'duplicated',
  export: 'exported',
  generate: 'generated',
  import: 'imported',
  ingest: 'ingested',
  install: 'installed',
  invite: 'invited',
  join: 'joined',
  merge: 'merged',
  move: 'moved',
  override: 'overridden',
  post: 'created',
  publish: 'published',
  queue: 'queued',
  regenerate: 'regenerated',
  remove: 'removed',
  render: 'rendered',
  request: 'requested',
  restore: 'restored',
  run: 'ran',
  set: 'set',
  sort: 'sorted',
  start: 'started',
  stream: 'streamed',
  submit: 'submitted',
  track: 'tracked',
  transfer: 'transferred',
  uninstall: 'uninstalled',
  unpublish: 'unpublished',
  update: 'updated',
  upsert: 'upserted',
};

/** Operation ids the rule names badly, with their action. */
const OVERRIDES: Record<string, string> = {
  createOrUpdateOpenAPISpecBySlug: 'openapi-spec.saved',
  dnsRevalidateCustomHostname: 'custom-hostname.revalidated',
  bulkUpsertSiteRedirects: 'site.redirects.upserted',
  updateChangeRequestContent: 'change-request.content.updated',
  setUserAsSSOMemberForOrganization: 'organization.member.sso-set',
  updateOrganizationMemberLastSeenAt: 'organization.member.seen',
  joinOrganizationWithInvite: 'organization.joined-with-invite',
  joinOrganization: 'organization.joined',
  renderIntegrationUIWithPost: 'integration-ui.rendered',
  addMemberToOrganizationTeamById: 'team.member.added',
  deleteMemberFromOrganizationTeamById: 'team.member.deleted',
  updateMembersInOrganizationTeam: 'team.members.updated',
};

const kebab = (words: string[]) => words.map((w) => w.toLowerCase()).join('-');

/** Actions of the operation ids met so far: every recorded write asks, and the regexes below cost ~1% of a busy server's CPU. */
const actions = new Map<string, string>();

export function actionOf(operationId: string): string {
  let a = actions.get(operationId);
  if (a === undefined) {
    // Operation ids are the contract's (a few hundred), never a caller's text: the map stays small.
    a = derive(operationId);
    actions.set(operationId, a);
  }
  return a;
}

function derive(operationId: string): string {
  const o = OVERRIDES[operationId];
  if (o) return o;
  const words = operationId
    .replace(/By(Id|Slug)$/, '')
    .replace(/OpenAPI/g, 'Openapi')
    .replace(/SAML/g, 'Saml')
    .replace(/SSO/g, 'Sso')
    .replace(/UI/g, 'Ui')
    .replace(/AI/g, 'Ai')
    .replace(/URL/g, 'Url')
    .split(/(?=[A-Z])/);
  const verb = words.shift()!;
  const at = words.findIndex((w) => /^(In|To|From|On|For)$/.test(w));
  const resource = at < 0 ? words : words.slice(0, at);
  const scope = at < 0 ? [] : words.slice(at + 1);
  const past = PAST[verb] ?? `${verb}ed`;
  // `inviteToSpace`: no resource before the preposition, so the scope is what the action is on.
  if (!resource.length) return [kebab(scope), past].join('.');
  return [...(scope.length ? [kebab(scope)] : []), kebab(resource), past].join('.');
}

/** The label of an action: the operation's summary in the contract (`Create a space`). */
export const labelOf = (summary: string, operationId: string) => summary.trim() || operationId;
