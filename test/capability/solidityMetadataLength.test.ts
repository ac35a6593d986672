import { describe, expect, it } from "vitest";
import { decodeBytecode } from "../../api/capability/decodeBytecode";
import { solidityMetadataLength } from "../../api/capability/solidityMetadataLength";
import { concatHex } from "./asm";

const bytes = (hex: string) => {
  const decoded = decodeBytecode(hex);
  if (!decoded.ok) throw new Error(decoded.reason);
  return decoded.bytes;
};

// {ipfs: h'1220…', solc: h'000823'} as solc ≥ 0.6 appends it (OpenZeppelin 5.7 ERC1967Proxy's tail)
const ipfsSolc = "0xa26469706673582212201d830a0b321476b4b0af8b56a12d3c8e48912cf4acf7e23c74080c8b447a2a1d64736f6c63430008230033";

describe("solidityMetadataLength", () => {
  it("default: the ipfs + solc map of solc ≥ 0.6, length suffix included", () => {
    expect(solidityMetadataLength(bytes(concatHex("0x5f5ffdfe", ipfsSolc)))).toBe(53);
  });

  it("behavior: the solc-only map (metadata hash none, Uniswap v3)", () => {
    expect(solidityMetadataLength(bytes("0x56fea164736f6c6343000706000a"))).toBe(12);
  });

  it("behavior: the legacy bzzr0 map of solc 0.4/0.5", () => {
    const bzzr0 = `0xa165627a7a72305820${"ab".repeat(32)}0029`;
    expect(solidityMetadataLength(bytes(concatHex("0x00fe", bzzr0)))).toBe(43);
  });

  it("behavior: a map with a boolean value (experimental: true)", () => {
    const experimental = `0xa364697066735822${"12".repeat(34)}6c6578706572696d656e74616cf564736f6c63430004080041`;
    expect(solidityMetadataLength(bytes(concatHex("0x00", experimental)))).toBe(67);
  });

  it("behavior: a trailer that holds 0xff and 0xf4 bytes is still recognised", () => {
    const trailer = `0xa264697066735822${"fff4".repeat(17)}64736f6c63430008230033`;
    expect(solidityMetadataLength(bytes(concatHex("0x00", trailer)))).toBe(53);
  });

  it("behavior: 0 when the tail only looks like a length (non-Solidity code is never cut)", () => {
    expect(solidityMetadataLength(bytes("0x6000600055600056fe0005"))).toBe(0); // 5 bytes before are not CBOR
    expect(
      solidityMetadataLength(bytes("0x363d3d373d3d3d363d73bebebebebebebebebebebebebebebebebebebebe5af43d82803e903d91602b57fd5bf3")),
    ).toBe(0);
    expect(solidityMetadataLength(bytes("0xa1640033"))).toBe(0); // map head, but its key runs past the end
  });

  it("behavior: 0 for a length longer than the code, and for empty or one-byte code", () => {
    expect(solidityMetadataLength(bytes("0x00ff"))).toBe(0);
    expect(solidityMetadataLength(bytes("0x"))).toBe(0);
    expect(solidityMetadataLength(bytes("0x33"))).toBe(0);
  });

  it("behavior: 0 when the map ends before the suffix (extra bytes in between)", () => {
    expect(solidityMetadataLength(bytes("0x00a164736f6c634300070600000b"))).toBe(0);
    expect(solidityMetadataLength(bytes("0x00a164736f6c6343000706000a"))).toBe(12); // the same without the extra byte
  });
});
