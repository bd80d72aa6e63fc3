/** Largest request body accepted (16 MiB, room for a batch of base64 files); larger is a 413. MCP tool arguments share it. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;
