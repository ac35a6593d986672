import { createRequire } from "node:module";
import type { PGlite } from "@electric-sql/pglite";

type ZeroPagesAddon = { releaseZeroPages(buffer: ArrayBuffer): number };

/** native/zeroPages.c as `npm install` builds it (Linux only); undefined where it was not built. */
const addon = loadAddon();

function loadAddon(): ZeroPagesAddon | undefined {
  if (process.platform !== "linux") return undefined;
  try {
    return createRequire(import.meta.url)("../../native/build/Release/zero_pages.node") as ZeroPagesAddon;
  } catch {
    console.warn("[store] native/ is not built (npm install builds it): PGlite keeps its zero pages resident");
    return undefined;
  }
}

/**
 * Gives the pages of `buffer` that hold only zeros back to the kernel (native/zeroPages.c): they read
 * as zeros again and count as resident only once written. `buffer` must be private memory nothing
 * writes meanwhile. Answers the bytes of zero pages given back (resident or not); undefined without
 * the addon.
 */
export function releaseZeroPagesOf(buffer: ArrayBuffer): number | undefined {
  return addon?.releaseZeroPages(buffer);
}

/**
 * PGlite 0.2 starts by writing zeros over most of its WebAssembly memory (emscripten zero-fills the
 * memory it maps, the 128-MB buffer pool with it), so about 125 MB of the process stays resident
 * holding nothing but zeros; this gives those pages back. PGlite runs its WebAssembly on this thread
 * with a memory of its own (not shared), so nothing writes it during the scan. An optimisation only:
 * it never throws, and answers undefined when it could not run (no addon, an instance not started).
 */
export function releaseZeroPages(client: PGlite): number | undefined {
  try {
    // `mod` (the emscripten module) is protected in PGlite's types; its HEAPU8 is the WebAssembly memory.
    const memory = (client as unknown as { mod?: { HEAPU8?: Uint8Array } }).mod?.HEAPU8?.buffer;
    return memory instanceof ArrayBuffer ? releaseZeroPagesOf(memory) : undefined;
  } catch {
    return undefined;
  }
}
