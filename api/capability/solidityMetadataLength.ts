/**
 * Length of the Solidity CBOR metadata trailer at the end of runtime code, its two-byte length suffix
 * included, or 0 when the tail is not one.
 *
 * The suffix alone is not trusted: the bytes it points at must parse as exactly one CBOR map with text
 * keys and scalar/string values (`{ipfs: h'..', solc: h'..'}`, `{bzzr0: ..}`, `{experimental: true}`)
 * ending right before the suffix, so that non-Solidity code is never cut.
 *
 * @example
 * solidityMetadataLength(code) // 53 for solc ≥ 0.6 (0xa2 0x64 "ipfs" ... 0x00 0x33)
 */
export function solidityMetadataLength(code: Uint8Array): number {
  const n = code.length;
  if (n < 2) return 0;
  const length = ((code[n - 2] as number) << 8) | (code[n - 1] as number);
  const start = n - 2 - length;
  if (length < 3 || start < 0) return 0;
  const head = code[start] as number;
  if (head < 0xa1 || head > 0xb7) return 0; // a map of 1..23 entries
  let pos = start + 1;
  for (let entries = head - 0xa0; entries > 0; entries--) {
    const key = code[pos] as number;
    if (key < 0x61 || key > 0x78) return 0; // text-string keys only
    pos = skipItem(code, pos, n - 2);
    if (pos < 0) return 0;
    pos = skipItem(code, pos, n - 2);
    if (pos < 0) return 0;
  }
  return pos === n - 2 ? length + 2 : 0;
}

/** Position after the CBOR item at `pos` (uint, byte/text string, bool or null), or -1. */
function skipItem(code: Uint8Array, pos: number, end: number): number {
  if (pos >= end) return -1;
  const b = code[pos] as number;
  const major = b >> 5;
  const info = b & 0x1f;
  if (major === 7) return b >= 0xf4 && b <= 0xf6 ? pos + 1 : -1; // false, true, null
  if (major !== 0 && major !== 2 && major !== 3) return -1;
  let value: number;
  let next = pos + 1;
  if (info < 24) value = info;
  else if (info === 24) {
    if (next >= end) return -1;
    value = code[next] as number;
    next += 1;
  } else if (info === 25) {
    if (next + 1 >= end) return -1;
    value = ((code[next] as number) << 8) | (code[next + 1] as number);
    next += 2;
  } else if (info === 26 && major === 0) {
    next += 4;
    value = 0;
  } else return -1;
  if (major !== 0) next += value; // string payload
  return next <= end ? next : -1;
}
