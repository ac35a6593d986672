import { createRequire } from "node:module";
import type { PGlite } from "@electric-sql/pglite";

type ZeroPagesAddon = { releaseZeroPages(buffer: ArrayBuffer): number };

/** native/zeroPages.c as `npm install` builds it; undefined where it could not be built (no compiler, not Linux). */
const addon = loadAddon();

function loadAddon(): ZeroPagesAddon | undefined {
  try {
    return createRequire(import.meta.url)("../../native/build/Release/zero_pages.node") as ZeroPagesAddon;
  } catch {
    return undefined;
  }
}

/**
 * PGlite 0.2 starts by writing zeros over most of its WebAssembly memory (emscripten zero-fills the
 * memory it maps, the 128-MB buffer pool with it), so about 125 MB of the process stays resident
 * holding nothing but zeros. This gives those pages back to the kernel (native/zeroPages.c): they read
 * as zeros again and count as resident only once written. PGlite runs its WebAssembly on this thread,
 * so nothing writes the memory while it is scanned. Answers the bytes of zero pages given back
 * (resident or not); undefined without the addon, or before the instance has started.
 */
export function releaseZeroPages(client: PGlite): number | undefined {
  // `mod` (the emscripten module) is protected in PGlite's types; its HEAPU8 is the WebAssembly memory.
  const memory = (client as unknown as { mod?: { HEAPU8: Uint8Array } }).mod?.HEAPU8.buffer;
  return addon && memory instanceof ArrayBuffer ? addon.releaseZeroPages(memory) : undefined;
}
