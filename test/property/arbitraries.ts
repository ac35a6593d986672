import fc from "fast-check";

/**
 * Shared generators of the property tests: what a caller can put in a header, a query string, a path
 * segment or a body. Each test file states how many cases it runs (`numRuns`).
 */

/** Any JavaScript string: every code point, lone surrogates included (what a parser may meet in memory). */
export const anyString = (maxLength = 200) => fc.string({ unit: "binary", maxLength });

/**
 * A string fetch accepts as a header value: Latin-1 code units (a ByteString) without NUL, CR or LF.
 * Leading and trailing spaces and tabs are dropped by `Headers`, as on the wire.
 */
export const headerValue = (maxLength = 120) =>
  fc.oneof(
    fc.string({
      unit: fc
        .integer({ min: 1, max: 0xff })
        .filter((c) => c !== 0x0a && c !== 0x0d)
        .map((c) => String.fromCharCode(c)),
      maxLength,
    }),
    fc.string({ maxLength }),
  );

/** The words a query parameter that carries a credential ends with, as `rejectQueryCredentials` documents them. */
export const credentialWords = [
  "key",
  "keys",
  "token",
  "tokens",
  "secret",
  "secrets",
  "auth",
  "authorization",
  "bearer",
  "credential",
  "credentials",
  "password",
  "passwd",
  "signature",
  "jwt",
  "session",
] as const;

/** Names callers actually use for a credential, each ending in one of `credentialWords`. */
export const commonCredentialNames = [
  "api_key",
  "apiKey",
  "x-api-key",
  "access_token",
  "refresh_token",
  "id_token",
  "client_secret",
  "auth",
  "authorization",
  "bearer",
  "session",
  "jwt",
  "password",
  "signature",
  "gateway_key",
  "proxy_secret",
] as const;

/** `-`, `_` or `.` between any two characters of `word`, each character in either case. */
export const disguised = (word: string) =>
  fc
    .tuple(
      fc.mixedCase(fc.constant(word)),
      fc.array(fc.constantFrom("", "", "-", "_", ".", "--", "_."), { minLength: word.length + 1, maxLength: word.length + 1 }),
    )
    .map(([cased, separators]) => [...cased].map((ch, i) => `${separators[i]}${ch}`).join("") + separators[word.length]);

/** A credential-shaped query parameter name: a common name or a bare word, with an optional prefix, disguised. */
export const credentialName = fc
  .tuple(
    fc.oneof(fc.constantFrom(...commonCredentialNames), fc.constantFrom(...credentialWords)),
    fc.oneof(fc.constant(""), fc.stringMatching(/^[a-z0-9]{1,8}[-_.]?$/)),
  )
  .chain(([name, prefix]) => disguised(name).map((d) => prefix + d));

/** Lowercased, `-`, `_`, `.` and whitespace removed: how the refusal compares parameter names. */
export const normalizedName = (name: string) => name.toLowerCase().replace(/[-_.\s]/g, "");

/** A name or value that reads as no credential: no credential word anywhere once normalized, nothing key-shaped. */
export const namesNoCredential = (s: string) => {
  const n = normalizedName(s);
  return !credentialWords.some((w) => n.includes(w)) && !/svc_(live|test)_/i.test(s);
};

/**
 * Percent-encodes a string's UTF-8 bytes as `encodeURIComponent` does (lone surrogates become U+FFFD instead
 * of throwing), or every byte when `all` is set.
 */
export const percentEncode = (s: string, all = false) =>
  [...new TextEncoder().encode(s)]
    .map((b) =>
      !all && /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).padStart(2, "0").toUpperCase()}`,
    )
    .join("");

/** What the decoder on the other side reads back from `percentEncode(s)`. */
export const wellFormed = (s: string) => new TextDecoder().decode(new TextEncoder().encode(s));

/** `min`..`max` hex digits in either case. */
export const hexDigits = (min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(..."0123456789abcdefABCDEF"), minLength: min, maxLength: max });

/** `min`..`max` random bytes as lowercase hex (no `0x`). */
export const hexBytes = (min: number, max: number) =>
  fc.uint8Array({ minLength: min, maxLength: max }).map((b) => Buffer.from(b).toString("hex"));
