import { describe, expect, test } from "vitest";
import type { z } from "zod";
import type * as server from "../../api/capability/AuditResponse";
import type { TransactionPreflightRequest as ServerPreflightRequest } from "../../api/capability/preflightTransaction";
import type { TransactionPreflightResponse as ServerPreflightResponse } from "../../api/capability/TransactionPreflightResponse";
import type { ProductEvent as ServerProductEvent } from "../../api/events/ProductEvent";
import type { StatusReport as ServerStatusReport } from "../../api/health/StatusReport";
import type * as keys from "../../api/keys/records";
import type { DexMetricsResponse } from "../../api/market/DexMetricsResponse";
import type { GasFees as ServerGasFees } from "../../api/market/GasFees";
import type { TokenPriceResponse } from "../../api/market/TokenPriceResponse";
import type { TradeSimulationResponse } from "../../api/market/TradeSimulationResponse";
import type { WhaleSignalsResponse } from "../../api/market/WhaleSignalsResponse";
import type { SampleEnvelope as ServerSampleEnvelope, SampleIndex as ServerSampleIndex } from "../../api/samples/SampleEnvelope";
import type { AggregateStats as ServerAggregateStats, PublicStats as ServerPublicStats } from "../../api/stats/StatsResponse";
import type * as client from "../../clients/js/src/index";

// The JS client's response types are written by hand (its package carries no server code). Each entry
// below is an identity function from the server's type to the client's: `npm run typecheck` fails when an
// answer the server builds no longer fits the client's type (or a request the client sends, the server's).
describe("the JS client's types fit the server's answers", () => {
  test("records", () => {
    const fits = [
      (x: ServerStatusReport): client.StatusReport => x,
      (x: keys.Plans): client.Plans => x,
      (x: keys.IntentEnvelope): client.IntentEnvelope => x,
      (x: keys.PurchaseIntent): client.PurchaseIntent => x,
      (x: keys.IssuedKey): client.IssuedKey => x,
      (x: keys.KeySelf): client.KeySelf => x,
      (x: keys.RevokeResult): client.RevokeResult => x,
      (x: ServerSampleIndex): client.SampleIndex => x,
      (x: ServerSampleEnvelope): client.SampleEnvelope => x,
      (x: ServerPublicStats): client.PublicStats => x,
      (x: ServerAggregateStats): client.AggregateStats => x,
    ];
    expect(fits.every((fit) => typeof fit === "function")).toBe(true);
  });

  test("observations and market answers", () => {
    const fits = [
      (x: server.AuditResponse): client.AuditResponse => x,
      (x: server.ScoreResponse): client.ScoreResponse => x,
      (x: ServerPreflightResponse): client.TransactionPreflightResponse => x,
      (x: ServerGasFees): client.GasFees => x,
      (x: DexMetricsResponse): client.DexMetrics => x,
      (x: TokenPriceResponse): client.TokenPrice => x,
      (x: WhaleSignalsResponse): client.WhaleSignals => x,
      (x: TradeSimulationResponse): client.TradeSimulation => x,
    ];
    expect(fits.every((fit) => typeof fit === "function")).toBe(true);
  });

  test("requests: what the client sends, the server accepts", () => {
    const fits = [
      (x: client.ProductEvent): z.input<typeof ServerProductEvent> => x,
      (x: client.TransactionPreflightRequest): z.input<typeof ServerPreflightRequest> => x,
    ];
    expect(fits.every((fit) => typeof fit === "function")).toBe(true);
  });
});
