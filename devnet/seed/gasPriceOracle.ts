import type { Address } from "viem";
import { basePredeploys } from "../../base/baseChain";
import { placeFixture, type SeedContext, send } from "../client";
import { artifactOf } from "../compile";

/**
 * L1 data-fee parameters of Base's order of magnitude, not a copy of one mainnet block: a 1.5 gwei L1 base
 * fee, a 0.2 gwei blob base fee, and scalars (six decimals) of the size OP Stack chains set (OP Mainnet's
 * Ecotone figures were 1368 and 810949).
 */
export const devnetL1FeeParameters = {
  l1BaseFee: 1_500_000_000n,
  blobBaseFee: 200_000_000n,
  baseFeeScalar: 2269,
  blobBaseFeeScalar: 1_055_762,
} as const;

/**
 * Places our GasPriceOracle fixture at the predeploy's address (its code, no constructor), makes the
 * deployer its owner and sets the L1 fee parameters: the service reads it exactly as it reads Base's.
 */
export async function seedGasPriceOracle(ctx: SeedContext): Promise<Address> {
  const oracle = { address: basePredeploys.gasPriceOracle, abi: artifactOf(ctx.artifacts, "GasPriceOracle").abi };
  await placeFixture(ctx, "GasPriceOracle", oracle.address);
  await send(ctx, { ...oracle, functionName: "initialize", args: [ctx.client.account.address] });
  const p = devnetL1FeeParameters;
  await send(ctx, {
    ...oracle,
    functionName: "setL1FeeParameters",
    args: [p.l1BaseFee, p.blobBaseFee, p.baseFeeScalar, p.blobBaseFeeScalar],
  });
  return oracle.address;
}
