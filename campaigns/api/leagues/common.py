"""Shared helper of the league API views."""

from campaigns.api.errors import run

__all__ = ["run"]
