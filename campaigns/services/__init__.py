"""Every write goes through a service: keyword-only, one transaction, a log entry."""

from campaigns.services.campaigns import campaign_create, side_invite, side_join
from campaigns.services.clubs import club_create, club_join

__all__ = ["campaign_create", "club_create", "club_join", "side_invite", "side_join"]
