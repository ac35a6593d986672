import { baseChainId, baseNetwork } from "../../../base/baseChain";

/**
 * The output example each payable route declares for discovery: an answer the devnet gave (USDC at its
 * Base address, WETH, the seeded pools), abridged to stay small in the x402 headers that carry it (every
 * list cut to its first entry, nested detail and observation records left out). The full answer's
 * schema is in the OpenAPI document and the discovery listing.
 */
export const discoveryExamples: Record<string, { pathParams?: Record<string, string>; output: unknown }> = {
  "GET /v1/audit/{address}": {
    pathParams: {
      address: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
    },
    output: {
      status: "SUCCESS",
      operation: "CONTRACT_CAPABILITY_OBSERVATION",
      address: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
      chainId: baseChainId,
      network: baseNetwork,
      isContract: true,
      notASafetyGuarantee: true,
      capabilityRating: "EXTENSIVE_SURFACE",
      capabilityScore: 5,
      score: {
        maxScore: 100,
      },
      evidenceGrade: true,
      evidenceStatus: "VERIFIED",
      effectiveTrust: "TRUSTED_PRIMARY",
      observationBlock: {
        status: "PINNED",
        chainId: baseChainId,
        network: baseNetwork,
        blockNumber: 334,
        blockHash: "0x3519bda367b826fd52a5fa7d06863f70eb83014b9edd39758a5eeab3649ca984",
        blockTag: "0x14e",
        providerName: "devnet",
        agreement: 1,
        sampled: 1,
        retrievedAt: "2026-11-23T22:32:30.181Z",
        originalRetrievalTime: "2026-11-23T22:32:30.181Z",
        trustLevel: "TRUSTED_PRIMARY",
        evidenceGrade: true,
        reason: null,
      },
      resolvedExecutionTarget: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
      resolvedImplementation: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
      resolvedFacet: null,
      capabilities: [
        {
          type: "OWNERSHIP_CHANGE_SELECTOR",
          confidence: "HIGH",
          reachability: "NOT_ESTABLISHED",
          selectorHex: "0x8f283970",
          sourceAddress: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
          executionRole: "SURFACE_TARGET",
        },
      ],
      dissections: [
        {
          address: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
          executionRole: "SURFACE_TARGET",
        },
      ],
      reachability: "NOT_ESTABLISHED",
    },
  },
  "GET /v1/security/score/{address}": {
    pathParams: {
      address: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
    },
    output: {
      address: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
      chainId: baseChainId,
      network: baseNetwork,
      notASafetyGuarantee: true,
      capabilityScore: 5,
      capabilityRating: "EXTENSIVE_SURFACE",
      maxScore: 100,
      evidenceGrade: true,
      evidenceStatus: "VERIFIED",
      effectiveTrust: "TRUSTED_PRIMARY",
      observationBlock: {
        status: "PINNED",
        chainId: baseChainId,
        network: baseNetwork,
        blockNumber: 335,
        blockHash: "0x18679559db81c5cd11cc1910588e0d6c0e49750b136c469ec4205039736be925",
        blockTag: "0x14f",
        providerName: "devnet",
        agreement: 1,
        sampled: 1,
        retrievedAt: "2026-11-23T22:32:34.067Z",
        originalRetrievalTime: "2026-11-23T22:32:34.067Z",
        trustLevel: "TRUSTED_PRIMARY",
        evidenceGrade: true,
        reason: null,
      },
    },
  },
  "GET /v1/gas/fees": {
    output: {
      chainId: baseChainId,
      network: baseNetwork,
      gasPrice: {
        wei: "1000000008",
        gwei: "1.000000008",
      },
      baseFee: {
        observationBlock: {
          wei: "8",
          gwei: "0.000000008",
        },
        nextBlock: {
          wei: "8",
          gwei: "0.000000008",
        },
      },
      priorityFees: {
        fromBlock: 317,
        toBlock: 336,
        blockCount: 20,
        percentiles: [
          {
            percentile: 10,
            wei: "1000000000",
            gwei: "1",
          },
        ],
        blocks: [
          {
            blockNumber: 317,
            baseFeePerGasWei: "8",
          },
        ],
      },
      l1DataFee: {
        oracle: "0x420000000000000000000000000000000000000F",
        l1BaseFee: {
          wei: "1500000000",
          gwei: "1.5",
        },
        blobBaseFee: {
          wei: "200000000",
          gwei: "0.2",
        },
        baseFeeScalar: "2269",
        blobBaseFeeScalar: "1055762",
        decimals: "6",
        upperBoundExample: {
          transaction: "an ERC-20 transfer(address,uint256) sent as an EIP-1559 transaction (68 bytes of calldata)",
          unsignedTxSizeBytes: 112,
        },
      },
      provenance: {
        source: "RPC",
        observationBlock: {
          status: "PINNED",
          chainId: baseChainId,
          network: baseNetwork,
          blockNumber: 336,
          blockHash: "0x6f32b36004c358d738c3a1c307b03020030efe51a294b918c3343e00228f445c",
          blockTag: "0x150",
          providerName: "devnet",
          agreement: 1,
          sampled: 1,
          retrievedAt: "2026-11-23T22:32:34.200Z",
          originalRetrievalTime: "2026-11-23T22:32:34.200Z",
          trustLevel: "TRUSTED_PRIMARY",
          evidenceGrade: true,
          reason: null,
        },
      },
    },
  },
  "GET /v1/token/price/{symbol}": {
    pathParams: {
      symbol: "WETH",
    },
    output: {
      symbol: "WETH",
      token: {
        symbol: "WETH",
        address: "0x4200000000000000000000000000000000000006",
        decimals: 18,
      },
      priceUsd: "3000",
      basis: "MEDIAN_OF_DEEPEST_POOLS",
      route: "STABLECOIN",
      wethPriceUsd: null,
      spread: {
        minUsd: "3000",
        maxUsd: "3000",
        bps: "0",
      },
      minDepthUsd: "50000",
      maxPools: 5,
      poolCount: 1,
      fewerThanThreePools: true,
      pools: [
        {
          address: "0x9b024df176ae22381693a1efeaab8c24fc8d78ea",
          dex: "aerodrome-volatile",
          poolManager: null,
          pairedWith: "USDC",
          route: "STABLECOIN",
          fee: null,
          hooks: null,
          priceUsd: "3000",
          depthUsd: "301545.575826",
          lastUpdatedBlock: 334,
        },
      ],
      excludedCount: 0,
      provenance: {
        source: "INDEX",
        observationBlock: {
          status: "PINNED",
          chainId: baseChainId,
          network: baseNetwork,
          blockNumber: 337,
          blockHash: "0x69aca8240caad404027b74d0b3c153562ed9169cb9d078fce7031ea6ef2c44e8",
          blockTag: "0x151",
          providerName: "devnet",
          agreement: 1,
          sampled: 1,
          retrievedAt: "2026-11-23T22:32:34.297Z",
          originalRetrievalTime: "2026-11-23T22:32:34.297Z",
          trustLevel: "TRUSTED_PRIMARY",
          evidenceGrade: true,
          reason: null,
        },
      },
    },
  },
  "GET /v1/dex/metrics": {
    output: {
      totals: {
        pools: 15,
        reserveUsd: "142000000.049625",
        depthUsd: "4312049.031757",
        volumeUsd: "0",
      },
      volumeWindow: {
        from: "2026-11-22T22:32:34.000Z",
        to: "2026-11-23T22:32:34.000Z",
        seconds: 86400,
      },
      provenance: {
        source: "INDEX",
        observationBlock: {
          status: "PINNED",
          chainId: baseChainId,
          network: baseNetwork,
          blockNumber: 338,
          blockHash: "0x88f0e826b79e1761ac94200986c88f6fc5d6f6beab8e245fa87f9b02208550b7",
          blockTag: "0x152",
          providerName: "devnet",
          agreement: 1,
          sampled: 1,
          retrievedAt: "2026-11-23T22:32:34.406Z",
          originalRetrievalTime: "2026-11-23T22:32:34.406Z",
          trustLevel: "TRUSTED_PRIMARY",
          evidenceGrade: true,
          reason: null,
        },
      },
    },
  },
  "GET /v1/whales/signals": {
    output: {
      window: {
        fromBlock: 0,
        toBlock: 339,
        blocks: 340,
      },
      signals: [],
      limit: 50,
      provenance: {
        source: "INDEX",
        observationBlock: {
          status: "PINNED",
          chainId: baseChainId,
          network: baseNetwork,
          blockNumber: 339,
          blockHash: "0x808d7fe14a01b22316ccc00761f0f07f2991c70ebc30579b4c609d764051c83a",
          blockTag: "0x153",
          providerName: "devnet",
          agreement: 1,
          sampled: 1,
          retrievedAt: "2026-11-23T22:32:34.545Z",
          originalRetrievalTime: "2026-11-23T22:32:34.545Z",
          trustLevel: "TRUSTED_PRIMARY",
          evidenceGrade: true,
          reason: null,
        },
      },
    },
  },
};
