"""Typed exceptions: the service's refusals (`{error, message, ...details}` with a status) and call failures."""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Mapping
from typing import Any


class ServiceError(Exception):
    """A refusal by the service, or a failure of the call itself (`CONNECTION_REFUSED`, `CONNECTION_FAILED`,
    `TIMEOUT`, `PAYMENT_CAP_EXCEEDED`, `INVALID_RESPONSE`; status 0 when no answer came). Switch on `code`."""

    def __init__(
        self, code: str, message: str, status: int, details: Mapping[str, Any] | None = None, retry_after: int | None = None
    ) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.status = status
        self.details: dict[str, Any] = dict(details or {})
        #: Seconds from `Retry-After`, when the answer carried one.
        self.retry_after = retry_after


class PaymentRequiredError(ServiceError):
    """402 on a payable route: no credential (`PAYMENT_REQUIRED`) or a refused payment; `challenge` is the
    decoded x402 challenge of the `PAYMENT-REQUIRED` header (None when the answer carried none)."""

    def __init__(self, code: str, message: str, status: int, details: Mapping[str, Any], challenge: dict[str, Any] | None) -> None:
        super().__init__(code, message, status, details)
        self.challenge = challenge


class PaymentCapExceededError(PaymentRequiredError):
    """The client's spending cap refused to pay a challenge: nothing was signed or sent."""


class CreditsExhaustedError(ServiceError):
    """402 `CREDITS_EXHAUSTED`: the key's credits for this 31-day cycle are spent (`cycle_ends_at`)."""

    @property
    def cycle_ends_at(self) -> str | None:
        value = self.details.get("cycleEndsAt")
        return value if isinstance(value, str) else None


class ExpiredKeyError(ServiceError):
    """402 `API_KEY_EXPIRED`: a paid key past its expiry; renew it."""


class AuthenticationError(ServiceError):
    """401: no key where one is required, or a key that is unknown, revoked or sent in the URL."""


class RateLimitedError(ServiceError):
    """429 (`RATE_LIMITED`, `DAILY_LIMIT_REACHED`, ...): wait `retry_after` seconds."""

    retry_after: int


class DataSourceUnavailableError(ServiceError):
    """503 `DATA_SOURCE_UNAVAILABLE`: evidence-grade data cannot be had now (nothing was charged)."""


class InvalidInputError(ServiceError):
    """400, or 404 `UNKNOWN_SYMBOL` (with `details["supported"]`): the request itself is wrong."""


def error_from_response(status: int, body: object, headers: Mapping[str, str]) -> ServiceError:
    """The typed exception for an answer that is not a 2xx (`headers` keyed in lowercase)."""
    fields = dict(body) if isinstance(body, dict) else {}
    code = fields.pop("error", None)
    message = fields.pop("message", None)
    code = code if isinstance(code, str) else f"HTTP_{status}"
    message = message if isinstance(message, str) else f"HTTP {status}"
    if status == 402:
        if code == "CREDITS_EXHAUSTED":
            return CreditsExhaustedError(code, message, status, fields)
        if code == "API_KEY_EXPIRED":
            return ExpiredKeyError(code, message, status, fields)
        return PaymentRequiredError(code, message, status, fields, decode_base64_json(headers.get("payment-required")))
    if status == 429:
        return RateLimitedError(code, message, status, fields, retry_after_seconds(headers) or 60)
    retry_after = retry_after_seconds(headers)
    if status == 401:
        return AuthenticationError(code, message, status, fields)
    if code == "DATA_SOURCE_UNAVAILABLE":
        return DataSourceUnavailableError(code, message, status, fields, retry_after)
    if status == 400 or code == "UNKNOWN_SYMBOL":
        return InvalidInputError(code, message, status, fields)
    return ServiceError(code, message, status, fields, retry_after)


def retry_after_seconds(headers: Mapping[str, str]) -> int | None:
    """`Retry-After` as whole seconds (the service sends an integer), else None."""
    value = headers.get("retry-after")
    return int(value) if value is not None and value.isdigit() else None


def decode_base64_json(value: str | None) -> Any:
    """A base64 JSON header value (x402's challenge and receipt), or None when it is not one."""
    if not value:
        return None
    try:
        return json.loads(base64.b64decode(value, validate=True))
    except (binascii.Error, ValueError):
        return None
