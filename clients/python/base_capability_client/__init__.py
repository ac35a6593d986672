"""Client for the Base capability and market service (version 1.2.7): standard library only."""

from .client import Client, Metered, MessageSigner
from .errors import (
    AuthenticationError,
    CreditsExhaustedError,
    DataSourceUnavailableError,
    ExpiredKeyError,
    InvalidInputError,
    PaymentCapExceededError,
    PaymentRequiredError,
    RateLimitedError,
    ServiceError,
)
from .x402 import X402Payer, usdc_to_atomic

__version__ = "1.2.7"

__all__ = [
    "AuthenticationError",
    "Client",
    "CreditsExhaustedError",
    "DataSourceUnavailableError",
    "ExpiredKeyError",
    "InvalidInputError",
    "MessageSigner",
    "Metered",
    "PaymentCapExceededError",
    "PaymentRequiredError",
    "RateLimitedError",
    "ServiceError",
    "X402Payer",
    "usdc_to_atomic",
]
