import { apiUrl, type Context } from '../kernel/context.js';
import type { ImportRunRecord } from './model.js';

/** The contract's ContentImportRun (0.202.0's fields; 0.146.0's are a subset). */
export function presentImportRun(ctx: Context, r: ImportRunRecord) {
  return {
    object: 'import-run' as const,
    id: r.id,
    status: r.status,
    ...(r.reason !== undefined ? { reason: r.reason } : {}),
    source: r.source,
    target: r.target,
    ...(r.site ? { site: r.site } : {}),
    createdBy: r.createdBy,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    ...(r.startedAt ? { startedAt: r.startedAt } : {}),
    ...(r.completedAt ? { completedAt: r.completedAt } : {}),
    pages: r.pages.map((p) => ({ id: p.id, type: p.type, status: 'complete' as const, ...(p.sourceURL ? { sourceURL: p.sourceURL } : {}) })),
    urls: { location: apiUrl(ctx, `/org/${r.organization}/imports/${r.id}`) },
  };
}
