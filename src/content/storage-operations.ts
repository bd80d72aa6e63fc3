import { defineOperation } from '../kernel/operation.js';
import { createUpload, storageKey, uploadUrl } from './storage.js';

// generateStorageUploadURL (docs/manual/imports-and-git.md#upload-urls).
export const generateStorageUploadURL = defineOperation('generateStorageUploadURL', async ({ ctx, caller, path, body }) => {
  const row = await ctx.store.write((tx) => createUpload(tx, ctx, caller, path.organizationId, body));
  return { status: 201, body: { object: 'storage-signed-url' as const, url: await uploadUrl(ctx, row), key: storageKey(row) } };
});
