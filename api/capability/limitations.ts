/** What every contract observation states about itself (spec: `limitations`). */
export const observationLimitations = [
  "Structural observation of runtime bytecode only: this is not an audit and not a safety, maliciousness or exploitability verdict.",
  "It establishes no reachability, authorization, intent, exploitability or economic safety of any observed pattern.",
  "The absence of a selected pattern is not evidence of safety; only the published selector and opcode patterns are looked for.",
  "State is read at the pinned observation block only and may differ at any other block.",
] as const;

/** Added on preflight answers, about the eth_call observation. */
export const simulationLimitation =
  "The eth_call outcome is an observation at the pinned block only: it does not predict the outcome of the transaction when mined.";
