from campaigns.models.battles import Battle, Decision
from campaigns.models.core import (
    Campaign,
    Club,
    ClubMembership,
    GameSystem,
    LogEntry,
    Side,
    SidePlayer,
)

__all__ = [
    "Battle",
    "Campaign",
    "Club",
    "ClubMembership",
    "Decision",
    "GameSystem",
    "LogEntry",
    "Side",
    "SidePlayer",
]
