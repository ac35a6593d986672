// evmole 0.8.4 ships types, but its package.json "exports" hides them from `moduleResolution: bundler`.
// The part the dissection benchmark uses:
declare module "evmole" {
  export function contractInfo(
    code: string,
    args: { selectors?: boolean; arguments?: boolean; stateMutability?: boolean },
  ): { functions?: { selector: string; bytecodeOffset: number }[] };
}
