"""HTTP over urllib: one call, repeated and moved to the fallback URL by its kind.

Kinds (the same rules as the JavaScript client):
- "read": a free GET; repeated after any failure, and moved to the fallback URL.
- "metered": a GET that costs a credit; the service charges only a 2xx, so it is repeated (and moved)
  after a refusal (429, 502/503/504) or a connection that never opened, never after a lost answer.
- "write": a POST; repeated only after a 429 or a connection that never opened, never moved.
"""

from __future__ import annotations

import json
import socket
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import urljoin

from .errors import RateLimitedError, ServiceError, error_from_response

CallKind = Literal["read", "metered", "write"]

_GATEWAY_STATUSES = {502, 503, 504}


@dataclass(frozen=True)
class Answer:
    """A 2xx answer: its status, headers (lowercase names) and JSON body (None when empty)."""

    status: int
    headers: dict[str, str]
    body: Any


@dataclass(frozen=True)
class Transport:
    base_url: str
    fallback_url: str | None
    timeout: float
    retries: int
    max_retry_delay: float

    def call(self, kind: CallKind, method: str, path: str, headers: dict[str, str], body: object = None) -> Answer:
        base = self.base_url
        attempt = 0
        while True:
            last = attempt >= self.retries
            outcome = send(base, method, path, headers, body, self.timeout)
            attempt += 1
            if isinstance(outcome, Answer):
                return outcome
            if outcome.status == 0:
                repeatable = kind == "read" or outcome.code == "CONNECTION_REFUSED"
                if last or not repeatable:
                    raise outcome
                if kind != "write" and self.fallback_url and base != self.fallback_url:
                    base = self.fallback_url
                continue
            if last:
                raise outcome
            if isinstance(outcome, RateLimitedError):
                if outcome.retry_after > self.max_retry_delay:
                    raise outcome
                time.sleep(outcome.retry_after)
                continue
            if outcome.status not in _GATEWAY_STATUSES or kind == "write":
                raise outcome
            if self.fallback_url and base != self.fallback_url:
                base = self.fallback_url
            else:
                time.sleep(outcome.retry_after if outcome.retry_after is not None else 0.25 * 2**attempt)


def send(base: str, method: str, path: str, headers: dict[str, str], body: object, timeout: float) -> Answer | ServiceError:
    """One HTTP exchange: the 2xx Answer, or the ServiceError it amounts to (returned, not raised)."""
    data = None if body is None else json.dumps(body).encode()
    all_headers = {"accept": "application/json", **headers}
    if data is not None:
        all_headers["content-type"] = "application/json"
    request = urllib.request.Request(urljoin(base, path), data=data, method=method, headers=all_headers)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return Answer(response.status, lowercase(response.headers.items()), parse_json(response.read(), response.status))
    except urllib.error.HTTPError as error:
        answer_headers = lowercase(error.headers.items())
        try:
            error_body = json.loads(error.read() or b"null")
        except ValueError:
            error_body = None
        return error_from_response(error.code, error_body, answer_headers)
    except ServiceError as error:
        return error
    except (TimeoutError, socket.timeout):
        return ServiceError("TIMEOUT", f"no answer from {base} within {timeout} s", 0)
    except urllib.error.URLError as error:
        refused = isinstance(error.reason, (ConnectionRefusedError, socket.gaierror))
        return ServiceError("CONNECTION_REFUSED" if refused else "CONNECTION_FAILED", f"{base}: {error.reason}", 0)
    except OSError as error:
        return ServiceError("CONNECTION_FAILED", f"{base}: {error}", 0)


def parse_json(raw: bytes, status: int) -> Any:
    if not raw:
        return None
    try:
        return json.loads(raw)
    except ValueError:
        raise ServiceError("INVALID_RESPONSE", f"HTTP {status}: the answer is not JSON", status) from None


def lowercase(items: Any) -> dict[str, str]:
    return {name.lower(): value for name, value in items}
