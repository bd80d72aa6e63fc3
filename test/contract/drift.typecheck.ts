// Compiled by `npm run typecheck` (never run): proves that a presenter or handler drifting from the
// contract fails to compile (docs/manual/contract.md#the-contracts-types). Each `@ts-expect-error`
// fails the typecheck if the line below it ever compiles, i.e. if the types stopped catching it.
import type { LatestSchemas, PinnedSchemas, ResponseBody, Schema } from '../../src/contract/types.js';
import { defineOperation } from '../../src/kernel/operation.js';

const urls = { location: 'http://localhost/v1/users/u' };

// A field both specs require, left out.
// @ts-expect-error `urls` is missing
export const missingField = (): Schema<'User'> => ({ object: 'user', id: 'u', displayName: 'U' });

// A value outside the contract's enum.
// @ts-expect-error `object` must be 'user'
export const wrongConstant = (): Schema<'User'> => ({ object: 'member', id: 'u', displayName: 'U', urls });

// A misspelt field (an object literal may not carry a field neither spec has).
// @ts-expect-error `displayname` is no field of User
export const typo = (): Schema<'User'> => ({ object: 'user', id: 'u', displayName: 'U', displayname: 'U', urls });

// What satisfies 0.146.0 alone is not enough when 0.202.0 requires more (OrganizationMember.sites).
declare const pinnedOnly: PinnedSchemas['OrganizationMember'];
// @ts-expect-error `sites` is required by 0.202.0
export const memberOfPinned: Schema<'OrganizationMember'> = pinnedOnly;
declare const latestOnly: LatestSchemas['Site'];
// @ts-expect-error `agentsContext` is required by 0.146.0
export const siteOfLatest: Schema<'Site'> = latestOnly;

// An operation's answer is typed the same way, from both specs' responses.
// @ts-expect-error getUserById answers a User, not a list
export const listForUser: ResponseBody<'getUserById', '200'> = { items: [] };

// A handler's input is its operation's: path parameters, query and body as the spec has them.
export const handler = defineOperation('getSpaceById', ({ path, query }) => {
  // @ts-expect-error getSpaceById has no `collectionId` path parameter
  const _id: string = path.collectionId;
  const key: string | undefined = query.shareKey;
  return { status: 200, body: { id: path.spaceId, key } };
});
export const bodyHandler = defineOperation('updateSpaceById', ({ body }) => {
  // @ts-expect-error updateSpaceById's body has no `name` (it is `title`)
  return { status: 200, body: body?.name };
});
