/** Decodes a base64 JSON header value (x402's challenge and receipt), or null when it is not one. */
export function decodeBase64Json(value: string): unknown {
  try {
    const bytes = Uint8Array.from(atob(value), (c) => c.charCodeAt(0));
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return null;
  }
}
