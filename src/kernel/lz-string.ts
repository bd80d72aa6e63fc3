// LZ-string's URI-safe form (`compressToEncodedURIComponent` / `decompressFromEncodedURIComponent`
// of the lz-string package, MIT, Pieroxy), the encoding GitBook's renderIntegrationUIWithGet takes
// its `request` in. Written here (a few dozen lines) rather than added as a dependency; the test
// (test/kernel/lz-string.test.ts) checks it against vectors made by lz-string itself.

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-$';
const VALUE = new Map([...ALPHABET].map((c, i) => [c, i]));

export function compressToEncodedURIComponent(input: string): string {
  return compress(input, 6, (i) => ALPHABET.charAt(i));
}

/** null when the text is not LZ-string's URI-safe form. */
export function decompressFromEncodedURIComponent(input: string): string | null {
  const text = input.replace(/ /g, '+');
  for (const c of text) if (!VALUE.has(c)) return null;
  if (text === '') return '';
  try {
    return decompress(text.length, 32, (i) => VALUE.get(text.charAt(i)) ?? 0);
  } catch {
    return null;
  }
}

function compress(input: string, bitsPerChar: number, toChar: (i: number) => string): string {
  const dictionary = new Map<string, number>();
  const toCreate = new Set<string>();
  let w = '';
  let enlargeIn = 2;
  let dictSize = 3;
  let numBits = 2;
  const out: string[] = [];
  let val = 0;
  let pos = 0;
  const bit = (b: number) => {
    val = (val << 1) | b;
    if (pos === bitsPerChar - 1) {
      pos = 0;
      out.push(toChar(val));
      val = 0;
    } else pos++;
  };
  const bits = (value: number, n: number) => {
    for (let i = 0; i < n; i++) {
      bit(value & 1);
      value >>= 1;
    }
  };
  const emit = (word: string) => {
    if (toCreate.has(word)) {
      const code = word.charCodeAt(0);
      if (code < 256) {
        bits(0, numBits);
        bits(code, 8);
      } else {
        bits(1, numBits);
        bits(code, 16);
      }
      if (--enlargeIn === 0) {
        enlargeIn = 2 ** numBits;
        numBits++;
      }
      toCreate.delete(word);
    } else bits(dictionary.get(word)!, numBits);
    if (--enlargeIn === 0) {
      enlargeIn = 2 ** numBits;
      numBits++;
    }
  };
  for (const c of input.split('')) {
    if (!dictionary.has(c)) {
      dictionary.set(c, dictSize++);
      toCreate.add(c);
    }
    const wc = w + c;
    if (dictionary.has(wc)) w = wc;
    else {
      emit(w);
      dictionary.set(wc, dictSize++);
      w = c;
    }
  }
  if (w !== '') emit(w);
  bits(2, numBits);
  for (;;) {
    val <<= 1;
    if (pos === bitsPerChar - 1) {
      out.push(toChar(val));
      break;
    }
    pos++;
  }
  return out.join('');
}

function decompress(length: number, resetValue: number, getNext: (i: number) => number): string | null {
  const dictionary: string[] = ['0', '1', '2'];
  let enlargeIn = 4;
  let dictSize = 4;
  let numBits = 3;
  const data = { val: getNext(0), position: resetValue, index: 1 };
  const read = (n: number) => {
    let bitsOut = 0;
    let power = 1;
    const max = 2 ** n;
    while (power !== max) {
      const resb = data.val & data.position;
      data.position >>= 1;
      if (data.position === 0) {
        if (data.index > length) throw new Error('truncated');
        data.position = resetValue;
        data.val = getNext(data.index++);
      }
      bitsOut |= (resb > 0 ? 1 : 0) * power;
      power <<= 1;
    }
    return bitsOut;
  };
  let c: string;
  switch (read(2)) {
    case 0:
      c = String.fromCharCode(read(8));
      break;
    case 1:
      c = String.fromCharCode(read(16));
      break;
    case 2:
      return '';
    default:
      return null;
  }
  dictionary[3] = c;
  let w = c;
  const result = [c];
  for (;;) {
    if (data.index > length) return null;
    let code = read(numBits);
    switch (code) {
      case 0:
        dictionary[dictSize++] = String.fromCharCode(read(8));
        code = dictSize - 1;
        enlargeIn--;
        break;
      case 1:
        dictionary[dictSize++] = String.fromCharCode(read(16));
        code = dictSize - 1;
        enlargeIn--;
        break;
      case 2:
        return result.join('');
    }
    if (enlargeIn === 0) {
      enlargeIn = 2 ** numBits;
      numBits++;
    }
    let entry: string;
    if (dictionary[code] !== undefined) entry = dictionary[code]!;
    else if (code === dictSize) entry = w + w.charAt(0);
    else return null;
    result.push(entry);
    dictionary[dictSize++] = w + entry.charAt(0);
    enlargeIn--;
    w = entry;
    if (enlargeIn === 0) {
      enlargeIn = 2 ** numBits;
      numBits++;
    }
  }
}
