/**
 * The whale rule: a transfer of a tracked token is a whale signal when its amount is at or above the
 * token's threshold (base units); a token without a threshold (not tracked) never gives one. Addresses
 * are compared in lower case, as the thresholds are keyed.
 */
export function isWhaleTransfer(thresholds: ReadonlyMap<string, bigint>, token: string, amount: bigint): boolean {
  const threshold = thresholds.get(token.toLowerCase());
  return threshold !== undefined && amount >= threshold;
}
