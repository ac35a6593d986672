"""The Python client against a live service (started by test/clients/clients.test.ts, which runs this).

Environment: SERVICE_URL (the harness gives the service's IPv6 loopback address, so that these calls have
a per-address budget of unauthenticated calls apart from the JavaScript client's on 127.0.0.1), DEVNET_MANIFEST, DEVNET_WALLET (a command that signs and pays as a devnet
account: Python's standard library has no secp256k1), and SERVICE_DATABASE_URL when the service's app
store is Postgres. Tests are numbered: they share one service and run in order.
"""

from __future__ import annotations

import json
import os
import shlex
import socket
import subprocess
import time
import unittest
import urllib.request
from typing import Any

from base_capability_client import (
    AuthenticationError,
    Client,
    CreditsExhaustedError,
    DataSourceUnavailableError,
    ExpiredKeyError,
    InvalidInputError,
    PaymentCapExceededError,
    PaymentRequiredError,
    RateLimitedError,
    ServiceError,
    X402Payer,
    usdc_to_atomic,
)

SERVICE_URL = os.environ.get("SERVICE_URL", "")
MANIFEST: dict[str, Any] = json.load(open(os.environ["DEVNET_MANIFEST"])) if os.environ.get("DEVNET_MANIFEST") else {}
DATABASE_URL = os.environ.get("SERVICE_DATABASE_URL")
USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"


def wallet(command: str, private_key: str, argument: dict[str, Any]) -> str:
    args = [*shlex.split(os.environ["DEVNET_WALLET"]), command, private_key, MANIFEST["rpcUrl"]]
    return subprocess.run(args, input=json.dumps(argument), capture_output=True, text=True, check=True).stdout.strip()


class DevnetSigner:
    """A devnet account as a MessageSigner."""

    def __init__(self, index: int) -> None:
        user = MANIFEST["accounts"]["users"][index]
        self.address: str = user["address"]
        self.private_key: str = user["privateKey"]

    def sign_message(self, message: str) -> str:
        return wallet("personal_sign", self.private_key, {"message": message})

    def sign_typed_data(self, typed_data: dict[str, Any]) -> str:
        return wallet("sign_typed_data", self.private_key, typed_data)


def rpc(method: str, params: list[Any]) -> Any:
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).encode()
    request = urllib.request.Request(MANIFEST["rpcUrl"], data=body, headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)["result"]


def usdc_balance(holder: str) -> int:
    data = "0x70a08231" + holder[2:].lower().rjust(64, "0")
    return int(rpc("eth_call", [{"to": USDC, "data": data}, "latest"]), 16)


def sql(statement: str) -> None:
    subprocess.run(["psql", DATABASE_URL or "", "-v", "ON_ERROR_STOP=1", "-c", statement], capture_output=True, check=True)


def until_raises(call: Any, error_type: type[Exception], tries: int = 20) -> Any:
    """Calls until it raises `error_type` (the service's key cache sees a store change within 1 s)."""
    last: object = None
    for _ in range(tries):
        try:
            last = call()
        except error_type as error:
            return error
        except ServiceError as error:
            last = error
        time.sleep(0.3)
    raise AssertionError(f"never raised {error_type.__name__}; last: {last!r}")


@unittest.skipUnless(SERVICE_URL, "SERVICE_URL is not set: run through test/clients/clients.test.ts")
class ClientAgainstService(unittest.TestCase):
    client: Client
    #: The free key of test 2 (users[8]), used again by the last test.
    free_key = ""

    @classmethod
    def setUpClass(cls) -> None:
        cls.client = Client(SERVICE_URL)
        cls.diamond = MANIFEST["contracts"]["diamond"]

    def test_01_public_reads(self) -> None:
        self.assertEqual(self.client.status()["apiVersion"], "2.2.0")
        self.assertIn({"route": "GET /v1/audit/{address}", "priceUsd": 0.02}, self.client.plans()["x402"])
        self.assertTrue(self.client.demo_audit(USDC)["notASafetyGuarantee"])
        self.assertIn("gas-fees", [s["name"] for s in self.client.samples()["samples"]])
        self.assertEqual(self.client.sample("token-price")["status"], "SAMPLE")
        self.assertEqual(self.client.stats(days=3)["view"], "PUBLIC")
        self.assertIsNone(self.client.send_event({"event": "pageViewed", "page": "docs"}))
        operator = Client(SERVICE_URL, operator_token=os.environ["OPERATOR_STATS_TOKEN"])
        self.assertEqual(operator.stats(bucket="test", days=1)["view"], "OPERATOR")
        with self.assertRaises(AuthenticationError) as refused:
            self.client.stats(bucket="test")
        self.assertEqual(refused.exception.code, "OPERATOR_UNAUTHORIZED")

    def test_02_free_key_and_every_metered_method(self) -> None:
        signer = DevnetSigner(8)
        issued = self.client.claim_free_key(signer)
        self.assertEqual((issued["status"], issued["tier"], issued["wallet"]), ("ISSUED", "FREE", signer.address))
        keyed = self.client.with_api_key(issued["apiKey"])
        type(self).free_key = issued["apiKey"]
        audit = keyed.audit(self.diamond)
        self.assertEqual(audit.data["address"].lower(), self.diamond.lower())
        self.assertEqual((audit.credits_remaining, audit.trust_level), (9, "TRUSTED_PRIMARY"))
        self.assertEqual(keyed.score(self.diamond).data["maxScore"], 100)
        self.assertGreater(int(keyed.gas_fees().data["gasPrice"]["wei"]), 0)
        self.assertEqual(keyed.dex_metrics().data["coverage"]["scope"], "TRACKED_POOLS")
        self.assertEqual(keyed.token_price("cbbtc").data["symbol"], "cbBTC")
        self.assertEqual(keyed.whale_signals().data["limit"], 50)
        mint = "0x40c10f19" + MANIFEST["accounts"]["deployer"]["address"][2:].lower().rjust(64, "0") + "1".rjust(64, "0")
        preflight = keyed.preflight({"chainId": 8453, "to": self.diamond, "data": mint, "from": MANIFEST["accounts"]["deployer"]["address"]})
        self.assertEqual(preflight.data["resolvedFacet"].lower(), MANIFEST["contracts"]["diamondMintFacet"].lower())
        self.assertEqual(preflight.credits_remaining, 3)
        # A malformed address is refused before any work, free (the key's credits are checked first: 3 left).
        with self.assertRaises(InvalidInputError) as malformed:
            keyed.token_simulation("0x1234")
        self.assertEqual((malformed.exception.code, malformed.exception.status), ("INVALID_ADDRESS", 400))
        # The fixture taking 3% on buys and 7% on sells: both observed to the basis point, for 2 credits.
        taxed = next(f for f in MANIFEST["simulationTokens"] if f["name"] == "buySellTax")
        simulation = keyed.token_simulation(taxed["address"])
        self.assertEqual((simulation.data["evidenceStatus"], simulation.data["conclusion"], simulation.credits_remaining), ("VERIFIED", None, 1))
        costs = {f["step"]: f["costBps"] for f in simulation.data["figures"]}
        self.assertEqual((costs["BUY_SMALL"], costs["TRANSFER"], costs["SELL_SMALL"]), (300, 0, 700))
        self.assertEqual(keyed.key_self()["credits"]["used"], 9)
        with self.assertRaises(ServiceError) as again:
            self.client.claim_free_key(signer)
        self.assertEqual((again.exception.code, again.exception.status), ("FREE_KEY_EXISTS", 409))

        with self.assertRaises(InvalidInputError) as unknown:
            keyed.token_price("PEPE")
        self.assertEqual((unknown.exception.code, unknown.exception.status), ("UNKNOWN_SYMBOL", 404))
        self.assertIn("WETH", unknown.exception.details["supported"])
        with self.assertRaises(InvalidInputError) as bad:
            keyed.audit("0x1234")
        self.assertEqual(bad.exception.code, "INVALID_ADDRESS")
        self.assertEqual(keyed.key_self()["credits"]["used"], 9)

    def test_03_no_key_is_payment_required_with_the_decoded_challenge(self) -> None:
        # Without a payer (eth_account absent, no signer given) pay=True cannot pay either: the same error.
        for call in (lambda: self.client.audit(self.diamond), lambda: self.client.audit(self.diamond, pay=True)):
            with self.assertRaises(PaymentRequiredError) as refused:
                call()
            self.assertEqual(refused.exception.code, "PAYMENT_REQUIRED")
            offer = refused.exception.challenge["accepts"][0]
            self.assertEqual((offer["network"], offer["amount"], offer["asset"]), ("eip155:8453", "20000", USDC))
            self.assertEqual(offer["payTo"].lower(), MANIFEST["payoutAddress"].lower())

    def test_04_x402_payment_moves_exactly_the_price(self) -> None:
        signer = DevnetSigner(9)
        payer = X402Payer(signer.address, signer.sign_typed_data, max_per_call_usdc="0.01", max_total_usdc="0.012")
        paying = Client(SERVICE_URL, payer=payer)
        payout = MANIFEST["payoutAddress"]
        before = (usdc_balance(signer.address), usdc_balance(payout))
        paid = paying.dex_metrics(pay=True)
        self.assertEqual(paid.data["coverage"]["scope"], "TRACKED_POOLS")
        self.assertEqual((paid.receipt["success"], paid.receipt["payer"].lower()), (True, signer.address.lower()))
        self.assertEqual(before[0] - usdc_balance(signer.address), 10_000)
        self.assertEqual(usdc_balance(payout) - before[1], 10_000)
        self.assertEqual(paying.spent_atomic_usdc, 10_000)
        # The caps refuse before signing: the client's per-call cap (audit: 0.02), then its total (0.002 left).
        with self.assertRaises(PaymentCapExceededError) as over_call:
            paying.audit(self.diamond, pay=True)
        self.assertEqual(over_call.exception.challenge["accepts"][0]["amount"], "20000")
        with self.assertRaises(PaymentCapExceededError):
            paying.gas_fees(pay=True)
        self.assertEqual(usdc_balance(signer.address), before[0] - 10_000)

    def test_05_rate_limited_with_retry_after(self) -> None:
        keyed = Client(SERVICE_URL, api_key=self.client.claim_free_key(DevnetSigner(10))["apiKey"], retries=3, max_retry_delay=0)
        refused = until_raises(keyed.key_self, RateLimitedError, tries=int(os.environ.get("FREE_RATE_LIMIT", "20")) + 2)
        self.assertEqual((refused.code, refused.status), ("RATE_LIMITED", 429))
        self.assertTrue(0 < refused.retry_after <= 60)

    def test_06_expired_key_and_exhausted_credits(self) -> None:
        if not DATABASE_URL:
            self.skipTest("needs SERVICE_DATABASE_URL: the test moves the key's rows in the service's Postgres app store")
        issued = self.client.claim_free_key(DevnetSigner(11))
        keyed = self.client.with_api_key(issued["apiKey"])
        keyed.gas_fees()
        sql(f"UPDATE app.credit_usage SET used = 300 WHERE key_id = '{issued['keyId']}'")
        spent = until_raises(keyed.gas_fees, CreditsExhaustedError)
        self.assertEqual((spent.code, spent.status), ("CREDITS_EXHAUSTED", 402))
        self.assertIsNotNone(spent.cycle_ends_at)
        sql(f"UPDATE app.api_key SET expires_at = now() - interval '1 day' WHERE id = '{issued['keyId']}'")
        expired = until_raises(keyed.gas_fees, ExpiredKeyError)
        self.assertEqual(expired.code, "API_KEY_EXPIRED")
        self.assertEqual(keyed.key_self()["status"], "EXPIRED")

    def test_07_paid_key_purchase_renewal_recovery_revocation(self) -> None:
        buyer = DevnetSigner(6)

        def buy(client: Client, renew: bool) -> tuple[dict[str, Any], dict[str, Any]]:
            intent = client.purchase_intent("STARTER", buyer.address, renew_existing_key=renew)["intent"]
            signature = buyer.sign_message(intent["messageToSign"])
            tx_hash = wallet("pay_usdc", buyer.private_key, {"usdc": USDC, "to": intent["payTo"], "units": intent["usdc"]["amount"]})
            for _ in range(60):
                try:
                    return intent, self.client.claim_purchase(intent["intentId"], signature, tx_hash)
                except InvalidInputError as error:
                    if error.code not in ("PAYMENT_NOT_FOUND", "PAYMENT_NOT_INDEXED", "PAYMENT_NOT_FINAL"):
                        raise
                    time.sleep(0.5)
            raise AssertionError("the payment never reached 3 confirmations in the index")

        _, issued = buy(self.client, False)
        self.assertEqual((issued["status"], issued["tier"]), ("ISSUED", "STARTER"))
        keyed = self.client.with_api_key(issued["apiKey"])
        intent, renewed = buy(keyed, True)
        self.assertEqual(intent["renewKeyId"], issued["keyId"])
        self.assertEqual((renewed["status"], renewed["apiKey"]), ("RENEWED", None))
        replaced = self.client.recover_key(buyer)
        self.assertEqual((replaced["status"], replaced["keyId"]), ("REPLACED", issued["keyId"]))
        with self.assertRaises(AuthenticationError):
            keyed.key_self()
        recovered = self.client.with_api_key(replaced["apiKey"])
        self.assertEqual(recovered.revoke_key()["status"], "REVOKED")
        with self.assertRaises(AuthenticationError) as revoked:
            recovered.key_self()
        self.assertEqual(revoked.exception.code, "API_KEY_REVOKED")

    def test_08_fallback_for_reads_only(self) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            closed = f"http://127.0.0.1:{probe.getsockname()[1]}"
        split = Client(closed, fallback_url=SERVICE_URL, retries=1)
        self.assertEqual(split.status()["apiVersion"], "2.2.0")
        with self.assertRaises(ServiceError) as refused:
            split.free_challenge(MANIFEST["accounts"]["users"][7]["address"])
        self.assertEqual((refused.exception.code, refused.exception.status), ("CONNECTION_REFUSED", 0))

    def test_09_index_behind_the_chain_is_data_source_unavailable(self) -> None:
        keyed = Client(SERVICE_URL, api_key=self.free_key, retries=0)
        used = keyed.key_self()["credits"]["used"]
        rpc("anvil_mine", [hex(500)])
        refused = until_raises(lambda: keyed.token_price("WETH"), DataSourceUnavailableError)
        self.assertEqual((refused.code, refused.status, refused.details.get("retryable")), ("DATA_SOURCE_UNAVAILABLE", 503, True))
        self.assertEqual(keyed.key_self()["credits"]["used"], used)


class WithoutEthAccount(unittest.TestCase):
    def test_from_private_key_needs_the_x402_extra(self) -> None:
        try:
            import eth_account  # noqa: F401
        except ImportError:
            with self.assertRaises(ImportError):
                X402Payer.from_private_key("0x" + "11" * 32, "0.02")
        else:
            self.skipTest("eth_account is installed: the extra's absence cannot be shown")

    def test_usdc_amounts_are_exact(self) -> None:
        self.assertEqual([usdc_to_atomic(a) for a in ("0.02", "0.005", "1", "49.000001")], [20_000, 5_000, 1_000_000, 49_000_001])
        for bad in ("0.0000001", "-1", "1e3", ""):
            with self.assertRaises(ValueError):
                usdc_to_atomic(bad)


if __name__ == "__main__":
    unittest.main()
