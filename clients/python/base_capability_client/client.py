"""The client: one method per route of the service."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Literal, Protocol
from urllib.parse import quote, urlencode

from ._transport import Answer, Transport, send
from .errors import PaymentCapExceededError, PaymentRequiredError, ServiceError, decode_base64_json
from .x402 import X402Payer, choose_requirements, payment_signature_header, usdc_to_atomic

JsonObject = dict[str, Any]
SampleName = Literal["gas-fees", "dex-metrics", "token-price", "whale-signals", "transaction-preflight"]


class MessageSigner(Protocol):
    """Signs a wallet challenge with personal_sign: an address and `sign_message(text) -> 0x signature`."""

    @property
    def address(self) -> str: ...

    def sign_message(self, message: str) -> str: ...


@dataclass(frozen=True)
class Metered:
    """A metered answer with what its headers say: provenance, what is left, and an x402 payment's receipt."""

    data: JsonObject
    #: The decoded `PAYMENT-RESPONSE` header; None unless the call was paid with x402.
    receipt: JsonObject | None
    credits_remaining: int | None
    rate_limit_remaining: int | None
    rpc_provider: str | None
    trust_level: str | None


@dataclass
class _Budget:
    spent: int = 0


class Client:
    """A client of the service: typed exceptions (see errors.py), retries that honour `Retry-After`, a
    fallback URL for idempotent reads, and optional x402 payment (`pay=True`) within spending caps.

    >>> client = Client("http://127.0.0.1:42069", api_key=key)
    >>> client.token_price("WETH").data["priceUsd"]
    """

    def __init__(
        self,
        base_url: str,
        *,
        fallback_url: str | None = None,
        api_key: str | None = None,
        operator_token: str | None = None,
        timeout: float = 30.0,
        retries: int = 2,
        max_retry_delay: float = 10.0,
        payer: X402Payer | None = None,
    ) -> None:
        self._transport = Transport(base_url, fallback_url, timeout, retries, max_retry_delay)
        self._api_key = api_key
        self._operator_token = operator_token
        self._payer = payer
        self._budget = _Budget()

    def with_api_key(self, api_key: str) -> Client:
        """The same client with another key (its own spending budget)."""
        other = Client(self._transport.base_url, api_key=api_key, operator_token=self._operator_token, payer=self._payer)
        other._transport = replace(self._transport)
        return other

    @property
    def spent_atomic_usdc(self) -> int:
        """USDC (atomic units) this client has paid with x402 so far."""
        return self._budget.spent

    # Status and discovery (no credential)
    def status(self) -> JsonObject:
        return self._json("read", "GET", "/v1/status", headers={})

    def plans(self) -> JsonObject:
        return self._json("read", "GET", "/v1/plans", headers={})

    def samples(self) -> JsonObject:
        return self._json("read", "GET", "/v1/samples", headers={})

    def sample(self, name: SampleName) -> JsonObject:
        return self._json("read", "GET", "/v1/sample?" + urlencode({"name": name}), headers={})

    def stats(self, *, days: int | None = None, bucket: Literal["production", "test"] | None = None) -> JsonObject:
        """Public stats, or the operator's aggregate view when the client has an `operator_token`."""
        query = urlencode({k: v for k, v in {"days": days, "bucket": bucket}.items() if v is not None})
        headers = {"authorization": f"Bearer {self._operator_token}"} if self._operator_token else {}
        return self._json("read", "GET", "/v1/stats" + (f"?{query}" if query else ""), headers=headers)

    def send_event(self, event: JsonObject) -> None:
        """`{"event": "pageViewed", "page": ...}` or `{"event": "ctaClicked", "page": ..., "cta": ...}`."""
        self._transport.call("write", "POST", "/v1/events", {}, event)

    def demo_audit(self, address: str) -> JsonObject:
        return self._json("read", "GET", f"/v1/demo/audit/{_segment(address)}", headers={})

    # Payable reads: an API key, or x402 with pay=True
    def audit(self, address: str, *, pay: bool = False, max_usdc: str | None = None) -> Metered:
        return self._metered(f"/v1/audit/{_segment(address)}", pay, max_usdc)

    def score(self, address: str, *, pay: bool = False, max_usdc: str | None = None) -> Metered:
        return self._metered(f"/v1/security/score/{_segment(address)}", pay, max_usdc)

    def gas_fees(self, *, pay: bool = False, max_usdc: str | None = None) -> Metered:
        return self._metered("/v1/gas/fees", pay, max_usdc)

    def dex_metrics(self, *, pay: bool = False, max_usdc: str | None = None) -> Metered:
        return self._metered("/v1/dex/metrics", pay, max_usdc)

    def token_price(self, symbol: str, *, pay: bool = False, max_usdc: str | None = None) -> Metered:
        return self._metered(f"/v1/token/price/{_segment(symbol)}", pay, max_usdc)

    def whale_signals(self, *, pay: bool = False, max_usdc: str | None = None) -> Metered:
        return self._metered("/v1/whales/signals", pay, max_usdc)

    def token_simulation(self, address: str, *, pay: bool = False, max_usdc: str | None = None) -> Metered:
        """A buy, a transfer and a sell of any ERC-20 on Base, simulated at a pinned block (2 credits, or 0.01 USDC)."""
        return self._metered(f"/v1/token/simulation/{_segment(address)}", pay, max_usdc)

    def preflight(self, request: JsonObject) -> Metered:
        """API key (or marketplace gateway) only: not x402-payable. Charged once a valid answer is ready."""
        return _metered_answer(self._transport.call("write", "POST", "/v1/transaction/preflight", self._key_headers(), request), None)

    # Keys and onboarding
    def free_challenge(self, user_wallet: str) -> JsonObject:
        return self._json("write", "POST", "/v1/subscribe/free/challenge", {"userWallet": user_wallet}, headers={})

    def free_claim(self, intent_id: str, signature: str) -> JsonObject:
        return self._json("write", "POST", "/v1/subscribe/free/claim", {"intentId": intent_id, "signature": signature}, headers={})

    def claim_free_key(self, signer: MessageSigner) -> JsonObject:
        """The whole free-key flow: a challenge for the signer's wallet, personal_sign, the claim."""
        intent = self.free_challenge(signer.address)["intent"]
        return self.free_claim(intent["intentId"], signer.sign_message(intent["messageToSign"]))

    def purchase_intent(
        self, tier: Literal["STARTER", "GROWTH", "PRO"], user_wallet: str, *, duration_days: int = 31, renew_existing_key: bool = False
    ) -> JsonObject:
        """Renewal (`renew_existing_key=True`) presents this client's key."""
        body = {"tier": tier, "userWallet": user_wallet, "durationDays": duration_days, "renewExistingKey": renew_existing_key}
        return self._json("write", "POST", "/v1/subscribe/intents", body, headers=self._key_headers() if renew_existing_key else {})

    def claim_purchase(self, intent_id: str, signature: str, tx_hash: str) -> JsonObject:
        """Redeems the intent's on-chain payment (3 confirmations): a new key, or the renewed key's new expiry."""
        body = {"intentId": intent_id, "signature": signature, "txHash": tx_hash}
        return self._json("write", "POST", "/v1/subscribe/crypto", body, headers={})

    def key_self(self) -> JsonObject:
        return self._json("read", "GET", "/v1/keys/self")

    def revoke_key(self) -> JsonObject:
        return self._json("write", "POST", "/v1/keys/revoke", {"confirm": True})

    def recovery_challenge(self, user_wallet: str, tx_hash: str | None = None) -> JsonObject:
        body = {"userWallet": user_wallet, **({"txHash": tx_hash} if tx_hash else {})}
        return self._json("write", "POST", "/v1/keys/recovery/challenge", body, headers={})

    def recovery_claim(self, intent_id: str, signature: str) -> JsonObject:
        return self._json("write", "POST", "/v1/keys/recovery/claim", {"intentId": intent_id, "signature": signature}, headers={})

    def recover_key(self, signer: MessageSigner, tx_hash: str | None = None) -> JsonObject:
        """The whole recovery flow for the signer's wallet: challenge, personal_sign, claim (a replacement key, shown once)."""
        intent = self.recovery_challenge(signer.address, tx_hash)["intent"]
        return self.recovery_claim(intent["intentId"], signer.sign_message(intent["messageToSign"]))

    # Internals
    def _key_headers(self) -> dict[str, str]:
        return {"x-api-key": self._api_key} if self._api_key else {}

    def _json(self, kind: Literal["read", "write"], method: str, path: str, body: object = None, *, headers: dict[str, str] | None = None) -> Any:
        return self._transport.call(kind, method, path, self._key_headers() if headers is None else headers, body).body

    def _metered(self, path: str, pay: bool, max_usdc: str | None) -> Metered:
        if not pay:
            return _metered_answer(self._transport.call("metered", "GET", path, self._key_headers()), None)
        base = self._transport.base_url
        first = send(base, "GET", path, {}, None, self._transport.timeout)
        if isinstance(first, Answer):
            return _metered_answer(first, None)
        if not isinstance(first, PaymentRequiredError) or first.challenge is None or self._payer is None:
            raise first
        return self._pay(path, first, max_usdc)

    def _pay(self, path: str, refusal: PaymentRequiredError, max_usdc: str | None) -> Metered:
        payer = self._payer
        assert payer is not None and refusal.challenge is not None
        requirements = choose_requirements(refusal.challenge)
        if requirements is None:
            raise refusal
        amount = int(requirements["amount"])
        caps = [usdc_to_atomic(payer.max_per_call_usdc)] + ([usdc_to_atomic(max_usdc)] if max_usdc else [])
        total = usdc_to_atomic(payer.max_total_usdc) if payer.max_total_usdc else None
        if any(amount > cap for cap in caps) or (total is not None and self._budget.spent + amount > total):
            raise PaymentCapExceededError(
                "PAYMENT_CAP_EXCEEDED",
                f"the challenge asks {amount} atomic USDC, over this client's cap: nothing was signed",
                402,
                {"amount": str(amount)},
                refusal.challenge,
            )
        header = payment_signature_header(payer, refusal.challenge, requirements)
        self._budget.spent += amount
        paid = send(self._transport.base_url, "GET", path, {"payment-signature": header}, None, self._transport.timeout)
        if isinstance(paid, ServiceError):
            # A non-2xx answer takes nothing (the service settles only a 2xx); a lost answer may have been paid.
            if paid.status != 0:
                self._budget.spent -= amount
            raise paid
        return _metered_answer(paid, decode_base64_json(paid.headers.get("payment-response")))


def _segment(value: str) -> str:
    """A path segment, encoded so a value can never leave its segment."""
    return quote(value, safe="")


def _metered_answer(answer: Answer, receipt: JsonObject | None) -> Metered:
    def number(name: str) -> int | None:
        value = answer.headers.get(name)
        return int(value) if value is not None and value.lstrip("-").isdigit() else None

    return Metered(
        data=answer.body,
        receipt=receipt,
        credits_remaining=number("x-credits-remaining"),
        rate_limit_remaining=number("x-ratelimit-remaining"),
        rpc_provider=answer.headers.get("x-service-rpc-provider"),
        trust_level=answer.headers.get("x-service-trust-level"),
    )
