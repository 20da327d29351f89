"""Start tracking a battle: its tracks as the scenario and the campaign set them up."""

from __future__ import annotations

from collections.abc import Mapping

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.cc.labels import side_word
from campaigns.i18n import rule_text
from campaigns.models import Battle, BattleTracker, LogEntry
from campaigns.permissions import viewer_context
from campaigns.selectors.cc_readings import battle_readings
from campaigns.services._base import append_log, lock_campaign
from rules.cc.battle.melee import MeleeRules
from rules.cc.battle.state import BattleMode, new_battle
from rules.cc.common import Faction, Posture
from rules.errors import RuleError
from rules.i18n import msg

MELEE_RULES = {"stalingrad": MeleeRules.STALINGRAD}
"""Campaigns whose Melees wait for a turn [ST-7]; the others resolve them at once [O16.4]."""


def battle_tracker_start(
    *,
    battle: Battle,
    actor,
    mode: str,
    time: int,
    sudden_death: int,
    initiative: str,
    first_player: str,
    postures: dict[str, str],
    surrender: dict[str, int | None],
    vp_axis: int = 0,
    readings: Mapping[str, bool] | None = None,
) -> BattleTracker:
    """Track `battle` from now on: the Time and Sudden Death markers, the VP marker, each
    side's Surrender space and posture, who holds the Initiative card and who plays first.
    Starting twice is refused; the values are the scenario's, checked by the rules. The rule
    readings are the campaign's unless `readings` changes some for this battle."""
    with transaction.atomic():
        campaign = lock_campaign(battle.campaign_id)
        battle = Battle.objects.select_for_update().get(pk=battle.pk)
        viewer = viewer_context(actor, campaign)
        if not viewer.is_participant:
            raise ValidationError(
                _("Only the battle's players and game master track it."), code="forbidden"
            )
        if battle.status != Battle.Status.PLAYING:
            raise ValidationError(_("A battle is tracked while it is being played."))
        if BattleTracker.objects.filter(battle=battle).exists():
            raise ValidationError(_("This battle is already tracked."), code="conflict")
        sides = {Faction(s.faction): side_word(s.name) for s in campaign.sides.all()}
        try:
            state = new_battle(
                time=time,
                sudden_death=sudden_death,
                initiative=Faction(initiative),
                first_player=Faction(first_player),
                postures={Faction(k): Posture(v) for k, v in postures.items()},
                surrender={Faction(k): v for k, v in surrender.items()},
                vp_axis=vp_axis,
                sides=sides or None,
                mode=BattleMode(mode),
                readings=battle_readings(campaign, readings),
                melee_rules=MELEE_RULES.get(campaign.template, MeleeRules.CORE),
            )
        except RuleError as exc:
            raise ValidationError(rule_text(exc)) from None
        except ValueError:
            raise ValidationError(_("Choose the sides and postures from the lists.")) from None
        tracker = BattleTracker.objects.create(battle=battle, state=state.as_data())
        append_log(
            campaign,
            kind=LogEntry.Kind.SETUP,
            summary=msg(
                "Battle tracked: Time marker on %(time)s, Sudden Death marker on %(sd)s, "
                "VP marker %(vp)s.",
                time=time,
                sd=sudden_death,
                vp=f"{vp_axis:+d}",
            ),
            actor=actor,
            rule="6.1.1",
            battle=battle,
        )
    return tracker
