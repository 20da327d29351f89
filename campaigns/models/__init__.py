"""The app's models, one module per concern."""

from campaigns.models.battles import Battle, Decision
from campaigns.models.cc_battle import BattleAction, BattleTracker
from campaigns.models.core import (
    Campaign,
    Club,
    ClubMembership,
    GameSystem,
    LogEntry,
    Side,
    SidePlayer,
)
from campaigns.models.leagues import (
    ClubInvite,
    League,
    LeagueParticipant,
    Rating,
    RatingSnapshot,
    Result,
    ResultCorrection,
    ResultPlayer,
)
from campaigns.models.notices import NoticeSettings
from campaigns.models.rosters import (
    Roster,
    RosterChange,
    RosterSystem,
    SealedOrders,
    SkirmishBattle,
    SkirmishCorrection,
    SkirmishEvent,
    SkirmishSide,
    SkirmishUndo,
)
from campaigns.models.tcs import (
    CommandPhase,
    OpSheetRecord,
    TcsCombat,
    TcsDecision,
    TcsFormation,
    TcsSide,
    TcsUnit,
)

__all__ = [
    "Battle",
    "BattleAction",
    "BattleTracker",
    "Campaign",
    "Club",
    "ClubInvite",
    "ClubMembership",
    "CommandPhase",
    "Decision",
    "GameSystem",
    "League",
    "LeagueParticipant",
    "LogEntry",
    "NoticeSettings",
    "OpSheetRecord",
    "Rating",
    "RatingSnapshot",
    "Result",
    "ResultCorrection",
    "ResultPlayer",
    "Roster",
    "RosterChange",
    "RosterSystem",
    "SealedOrders",
    "Side",
    "SidePlayer",
    "SkirmishBattle",
    "SkirmishCorrection",
    "SkirmishEvent",
    "SkirmishSide",
    "SkirmishUndo",
    "TcsCombat",
    "TcsDecision",
    "TcsFormation",
    "TcsSide",
    "TcsUnit",
]
