// The operations this server serves, set by src/operations.ts when it loads (the one list of them),
// for the few handlers that list operations (the audit event actions, src/audit/operations.ts)
// without importing that list, which loads them: a circle.
let served: readonly string[] = [];

export const setServedOperations = (ids: readonly string[]) => void (served = ids);
export const servedOperations = (): readonly string[] => served;
