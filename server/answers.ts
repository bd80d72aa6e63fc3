// GET answers sent again until the store's next commit. An operation that declares `keepsAnswer`
// (src/kernel/operation.ts: its 200 is a function of the store's rows, the caller and the path and
// query alone) answers the same token and URL with the same bytes as long as the store's
// generation (src/store/port.ts: it moves on every commit, this process's or one heard from
// another) has not moved. A revoked token, a removed member, a changed space or organization are
// commits: the next request runs the operation again. Authentication (server/rate-limit.ts) runs
// on every request before the lookup, so an expired token or one over its limit is refused as
// before; a scoped token's calls and requests with a body are never kept (invoke checks those).
// The same idea as the published sites' answers (src/published/render/cache.ts).

/** At most this many answers, of at most MAX_BYTES in all; one answer at most MAX_ONE bytes. */
const MAX_ANSWERS = 4096;
const MAX_BYTES = 16 * 1024 * 1024;
const MAX_ONE = 256 * 1024;

export interface Kept {
  bytes: Buffer;
  headers?: Record<string, string>;
}

export class Answers {
  private readonly kept = new Map<string, Kept>();
  private generation = -1;
  private bytes = 0;

  /** The answer kept for `key` at the store's current `generation`, if any. */
  get(key: string, generation: number | undefined): Kept | undefined {
    return generation === this.generation ? this.kept.get(key) : undefined;
  }

  /**
   * Keeps the answer of `key` computed from the store as of `generation` (read before the
   * operation ran), unless a commit came since (`now`): it may not be that generation's answer.
   */
  keep(key: string, generation: number | undefined, now: number | undefined, answer: Kept): void {
    if (generation === undefined || now !== generation || answer.bytes.length > MAX_ONE) return;
    if (generation !== this.generation) {
      this.kept.clear();
      this.bytes = 0;
      this.generation = generation;
    }
    if (this.kept.size >= MAX_ANSWERS || this.bytes + answer.bytes.length > MAX_BYTES) {
      this.kept.clear();
      this.bytes = 0;
    }
    const old = this.kept.get(key);
    if (old) this.bytes -= old.bytes.length;
    this.kept.set(key, answer);
    this.bytes += answer.bytes.length;
  }
}
