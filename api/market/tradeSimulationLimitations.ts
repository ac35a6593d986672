/** What every trade simulation states about itself. */
export const tradeSimulationLimitations = [
  "An economic observation at the pinned block only, not a verdict: it does not predict a trade's outcome when mined.",
  "The trader and its peer are contracts placed by state override at new addresses with no history: a token treating contracts, new holders or particular addresses differently (allowlists, anti-bot rules, cooldowns) may treat a real wallet otherwise.",
  "No time passes between the steps (one block): rules that depend on time or blocks (launch windows, cooldowns, time-based rebases) are not exercised.",
  "Pools against USDC or WETH are found by address derivation on Uniswap V2, Uniswap V3 (every fee tier), Uniswap V4 (hookless pools of the standard fee and tick-spacing pairs, ERC-20 currencies: not native ETH), Aerodrome basic pools and Slipstream (every CL factory's tick spacings).",
  "A concentrated pool (Uniswap V3 and V4, Slipstream) is ranked by its in-range liquidity as if it spanned the 2% of depth, which overstates a pool whose liquidity sits in a narrow range (its larger buy may then cross many ticks or exhaust it); its sells must pay the pool exactly, so a token that keeps part of a transfer reverts them (V3's IIA, V4's CurrencyNotSettled), as it would for a real trader.",
  "A sell's costBps compares what the pool paid with its quote for everything sent, so it includes the curve's effect of a smaller amount arriving; tokenShortfallBps is what the token itself kept back.",
] as const;
