"""Combat Commander campaigns in the API: every action the campaign and battle pages offer."""

from __future__ import annotations


def register(router) -> None:
    """Add this module's viewsets to the API router."""
