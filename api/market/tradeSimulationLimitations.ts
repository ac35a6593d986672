/** What every trade simulation states about itself. */
export const tradeSimulationLimitations = [
  "An economic observation at the pinned block only, not a verdict: it does not predict a trade's outcome when mined.",
  "The trader and its peer are contracts placed by state override at new addresses with no history: a token treating contracts, new holders or particular addresses differently (allowlists, anti-bot rules, cooldowns) may treat a real wallet otherwise.",
  "No time passes between the steps (one block): rules that depend on time or blocks (launch windows, cooldowns, time-based rebases) are not exercised.",
  "Only Uniswap V2 pairs and Aerodrome basic pools against USDC or WETH are found (by address derivation) and traded through; concentrated-liquidity pools (Uniswap V3 and V4, Slipstream) are not simulated yet.",
  "A sell's costBps compares what the pool paid with its quote for everything sent, so it includes the curve's effect of a smaller amount arriving; tokenShortfallBps is what the token itself kept back.",
] as const;
