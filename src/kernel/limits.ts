/** Largest request body accepted (16 MiB, room for a batch of base64 files); larger is a 413. MCP tool arguments share it. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

/**
 * Largest page markdown accepted (2 MiB of UTF-8): parsing markdown takes ~130 bytes of memory
 * per byte, so a 16 MiB page (what a request may carry) would hold 2 GB of a server's memory.
 * `docs content push` refuses a larger page file before reading it.
 */
export const MAX_PAGE_BYTES = 2 * 1024 * 1024;
