/** What a payable route tells x402, from the route list: its name, method, path, what it answers, its price, its parameters. */
export type PaidRoute = {
  name: string;
  method: "get" | "post";
  path: string;
  summary: string;
  x402PriceUsd: number;
  request?: { params?: unknown };
};

/** The resource one request pays for: its full URL (at the origin it came through) and its path. */
export type PaidResource = { url: string; path: string };
