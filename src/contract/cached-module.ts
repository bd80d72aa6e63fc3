import { hash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import vm from 'node:vm';

// The precompiled validators (generated/contract/*/<operationId>.cjs, ajv standalone code) are
// loaded per operation on first use, and some are large: a body holding a Document
// (updateChangeRequestContent, 830 KB) took ~30 ms of CPU to compile and first run, which every
// write command using it paid again (each `content push`), and `docs serve` on the first request
// of each such operation. They are loaded here as
// CommonJS, with a V8 code cache of their own: the first process to use a validator writes, after
// its first call, the compiled code of what ran; the next ones take it instead of compiling.
//
// The cache file is named by the module's SHA-256 (V8 checks a cache against the source's length
// only), Node's version and the architecture (V8 rejects another's cache anyway). A cache that
// fails its checksum or that V8 rejects (other flags) only means compiling, and is written again;
// a folder that cannot be written to means no cache. The code run is always the module's own
// source. scripts/build-validators.mjs empties the folder when it writes new validators.

/** What loading did (tests): modules loaded, caches taken, caches written. */
export const cachedModuleWork = { loaded: 0, cacheHits: 0, written: 0 };

// Release builds of V8 check a cache's version, flags and source length, not its bytes (no
// checksum: --verify-snapshot-checksum is off), so a damaged file could be taken as code. Each
// cache starts with the SHA-256 of the rest, checked before V8 sees it (~1 ms for 500 KB).
const digest = (data: Buffer) => hash('sha256', data, 'buffer') as unknown as Buffer;
const checked = (file: Buffer): Buffer | undefined => {
  const data = file.subarray(32);
  return file.length > 32 && digest(data).equals(file.subarray(0, 32)) ? data : undefined;
};

const WRAPPER = ['(function (exports, require, module, __filename, __dirname) { ', '\n})'];

/**
 * `require(file)` of a CommonJS module, compiled with a code cache kept in `cacheDir`. The cache
 * is written after the first call of the function the module exports (so that it holds the
 * code that call compiled), when the module exports a function; after the first call of each
 * when it exports an object of functions; else right after loading.
 */
export function requireCached(file: string, cacheDir: string): any {
  const source = readFileSync(file, 'utf8');
  const cacheFile = join(cacheDir, `${basename(file, '.cjs')}-${hash('sha256', source, 'hex').slice(0, 16)}-${process.version}-${process.arch}.cache`);
  let cachedData: Buffer | undefined;
  try {
    cachedData = checked(readFileSync(cacheFile));
  } catch {
    // no cache yet
  }
  const script = new vm.Script(WRAPPER[0] + source + WRAPPER[1], { filename: file, cachedData });
  const module = { exports: {} as any };
  // Most validators require nothing: their require is made when first called.
  let req: NodeJS.Require | undefined;
  const lazyRequire = (id: string) => (req ??= createRequire(file))(id);
  script.runInThisContext()(module.exports, lazyRequire, module, file, dirname(file));
  cachedModuleWork.loaded++;
  const hit = cachedData !== undefined && !script.cachedDataRejected;
  if (hit) {
    cachedModuleWork.cacheHits++;
    return module.exports;
  }
  const write = () => {
    // Threads of one process (test workers) may write the same cache: each its own temp file.
    const tmp = `${cacheFile}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      mkdirSync(cacheDir, { recursive: true });
      const data = script.createCachedData();
      writeFileSync(tmp, Buffer.concat([digest(data), data]));
      renameSync(tmp, cacheFile);
      cachedModuleWork.written++;
    } catch {
      // a folder we may not write to: no cache
      try {
        rmSync(tmp, { force: true });
      } catch {
        // nothing was written
      }
    }
  };
  const exported = module.exports;
  // The same function (its properties, `default`, `errors` as ajv sets them, kept), writing the
  // cache after its first call.
  const afterFirstCall = (fn: (...args: unknown[]) => unknown, called: () => void) => {
    let first = true;
    return new Proxy(fn, {
      apply(target, self, args) {
        const out = Reflect.apply(target, self, args);
        if (first) {
          first = false;
          called();
        }
        return out;
      },
    });
  };
  if (typeof exported === 'function') return afterFirstCall(exported, write);
  // An object of functions (the path and query validators of an operation: { path, query }):
  // written once each has been called, so that the cache holds the code of both.
  const fns = Object.keys(exported ?? {}).filter((k) => typeof exported[k] === 'function');
  if (!fns.length) {
    write();
    return exported;
  }
  let waiting = fns.length;
  const out = { ...exported };
  for (const k of fns) out[k] = afterFirstCall(exported[k], () => --waiting === 0 && write());
  return out;
}
