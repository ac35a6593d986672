"""x402 v2 payment of a 402 challenge ("exact" scheme, EIP-3009 `transferWithAuthorization` on Base).

Signing is an optional extra: `X402Payer.from_private_key` needs `eth_account` (`pip install
base-capability-client[x402]`). Any other signer works too: an address and a function that signs EIP-712
typed data (the eth_signTypedData_v4 JSON form) and returns the 0x signature.
"""

from __future__ import annotations

import base64
import json
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

USDC_DECIMALS = 6
BASE_NETWORK = "eip155:8453"

TRANSFER_WITH_AUTHORIZATION = [
    {"name": "from", "type": "address"},
    {"name": "to", "type": "address"},
    {"name": "value", "type": "uint256"},
    {"name": "validAfter", "type": "uint256"},
    {"name": "validBefore", "type": "uint256"},
    {"name": "nonce", "type": "bytes32"},
]
EIP712_DOMAIN = [
    {"name": "name", "type": "string"},
    {"name": "version", "type": "string"},
    {"name": "chainId", "type": "uint256"},
    {"name": "verifyingContract", "type": "address"},
]

TypedDataSigner = Callable[[dict[str, Any]], str]


@dataclass(frozen=True)
class X402Payer:
    """Who pays: the payer's address, its typed-data signer, and the caps in USDC (decimal text)."""

    address: str
    sign_typed_data: TypedDataSigner
    max_per_call_usdc: str
    #: The most the client pays in all; None: no total cap.
    max_total_usdc: str | None = None

    @classmethod
    def from_private_key(cls, private_key: str, max_per_call_usdc: str, max_total_usdc: str | None = None) -> X402Payer:
        """A payer signing with `eth_account` (the optional extra); ImportError when it is not installed."""
        from eth_account import Account
        from eth_account.messages import encode_typed_data

        account = Account.from_key(private_key)

        def sign(typed_data: dict[str, Any]) -> str:
            # bytes32 as bytes: what every eth_account version takes for a fixed-size bytes field.
            message = {**typed_data["message"], "nonce": bytes.fromhex(typed_data["message"]["nonce"][2:])}
            signed = account.sign_message(encode_typed_data(full_message={**typed_data, "message": message}))
            return "0x" + signed.signature.hex().removeprefix("0x")

        return cls(account.address, sign, max_per_call_usdc, max_total_usdc)


def usdc_to_atomic(usdc: str) -> int:
    """USDC decimal text ("0.05") as atomic units (50000)."""
    if not re.fullmatch(r"\d+(\.\d{1,6})?", usdc.strip()):
        raise ValueError(f"not a USDC amount with at most {USDC_DECIMALS} decimals: {usdc}")
    return int(Decimal(usdc.strip()) * 10**USDC_DECIMALS)


def choose_requirements(challenge: dict[str, Any]) -> dict[str, Any] | None:
    """The challenge's "exact" offer on Base, if any."""
    for offer in challenge.get("accepts", []):
        if offer.get("scheme") == "exact" and offer.get("network") == BASE_NETWORK:
            return dict(offer)
    return None


def payment_signature_header(payer: X402Payer, challenge: dict[str, Any], requirements: dict[str, Any]) -> str:
    """The `PAYMENT-SIGNATURE` header value: base64 of an x402 v2 PaymentPayload with a signed EIP-3009 authorization."""
    extra = requirements.get("extra") or {}
    if "name" not in extra or "version" not in extra:
        raise ValueError("the challenge names no EIP-712 domain (extra.name, extra.version) for its asset")
    authorization = {
        "from": payer.address,
        "to": requirements["payTo"],
        "value": str(requirements["amount"]),
        "validAfter": "0",
        "validBefore": str(int(time.time()) + int(requirements["maxTimeoutSeconds"])),
        "nonce": "0x" + secrets.token_hex(32),
    }
    typed_data = {
        "types": {"EIP712Domain": EIP712_DOMAIN, "TransferWithAuthorization": TRANSFER_WITH_AUTHORIZATION},
        "primaryType": "TransferWithAuthorization",
        "domain": {
            "name": extra["name"],
            "version": extra["version"],
            "chainId": int(requirements["network"].split(":")[1]),
            "verifyingContract": requirements["asset"],
        },
        "message": {
            **authorization,
            "value": int(authorization["value"]),
            "validAfter": int(authorization["validAfter"]),
            "validBefore": int(authorization["validBefore"]),
        },
    }
    payload = {
        "x402Version": challenge.get("x402Version", 2),
        "payload": {"authorization": authorization, "signature": payer.sign_typed_data(typed_data)},
        "resource": challenge.get("resource"),
        "accepted": requirements,
    }
    return base64.b64encode(json.dumps(payload, separators=(",", ":")).encode()).decode()
