// The string formats the contract's validators know, in one place: the run-time ajv engine
// (src/contract/validate.ts) adds them, and the validators precompiled at build time
// (scripts/build-validators.mjs) reference this module from their generated code, so both
// accept exactly the same values. Copied to generated/contract/formats.cjs by the build.
'use strict';
const { fullFormats } = require('ajv-formats/dist/formats');

// One emoji: pictographs, flags, keycaps, with their joiners, variation selectors and tags.
const EMOJI =
  /^(?=.*[\p{Extended_Pictographic}\p{Regional_Indicator}\u20e3])[\p{Extended_Pictographic}\p{Regional_Indicator}\p{Emoji_Modifier}\u200d\ufe0f\u20e3#*0-9\u{E0020}-\u{E007F}]{1,16}$/u;

/** The spec's own formats, beyond ajv-formats. */
const custom = {
  // "Unicode codepoint or character of the emoji" (🎉 or 1f389, joined sequences too; '' clears it on updates).
  emoji: (s) => s === '' || EMOJI.test(s) || /^[0-9a-f]{4,6}(-[0-9a-f]{4,6})*$/i.test(s),
  // An icon name (gear, arrow-right).
  icon: /^[a-z0-9]+(?:-[a-z0-9]+)*$/,
};
// OpenAPI's numeric formats are sizes, not string formats: accept them.
const sizes = ['int32', 'int64', 'float', 'double', 'byte', 'binary', 'password'];

/**
 * A format checked once per distinct string (the answer is the same every time): an insights
 * ingest post of 100 events repeats a few page URLs, and `uri` is one long regex (measured: 7% of
 * the CPU of `docs serve` under trackEventsInSiteById, docs/manual/insights.md#figures). Bounded:
 * short strings only, and the memo is emptied when full.
 */
function memo(check, max = 4096) {
  const seen = new Map();
  return (s) => {
    if (typeof s !== 'string' || s.length > 512) return check(s);
    let ok = seen.get(s);
    if (ok === undefined) {
      ok = check(s);
      if (seen.size >= max) seen.clear();
      seen.set(s, ok);
    }
    return ok;
  };
}

module.exports = { custom, sizes, formats: { ...fullFormats, uri: memo(fullFormats.uri), ...custom } };
