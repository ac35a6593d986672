import type { ReadHead } from "../chain/probeProvider";
import { type ShareReadsParameters, shareReads } from "../memo/shareReads";

/**
 * `readHead` shared per provider and block tag (`shareReads`): any number of status calls make at most
 * one request per provider a second (the trusted primary is a paid one).
 */
export function shareHeadReads(readHead: ReadHead, options: ShareReadsParameters = {}): ReadHead {
  return shareReads(readHead, (provider, tag = "latest") => `${provider.url} ${tag}`, options);
}
