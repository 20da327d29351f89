"""The rule readings a battle plays by: the campaign's options, or those chosen for the battle
when its tracking starts (rules/cc/battle/readings.py)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from campaigns.cc.engines import TEMPLATES
from campaigns.models import Campaign
from rules.cc.battle.readings import READING_NAMES, BattleReadings


def campaign_readings(campaign: Campaign) -> BattleReadings:
    """The readings the campaign was created with (the seed's defaults for older campaigns)."""
    template = TEMPLATES.get(campaign.template)
    options = template.read(campaign).options if template else None
    return BattleReadings(**{n: getattr(options, n) for n in READING_NAMES if hasattr(options, n)})


def battle_readings(campaign: Campaign, chosen: Mapping[str, bool] | None) -> BattleReadings:
    """The campaign's readings with the ones `chosen` for this battle (unknown names ignored:
    forms and serializers only offer the known ones)."""
    return replace(
        campaign_readings(campaign),
        **{n: bool(v) for n, v in (chosen or {}).items() if n in READING_NAMES},
    )
