"""Attacker and defender by the dice (§9.1): each player rolls 1D6, ties rolled again, the
winner chooses; Italy's "Defensa de la patria" adds +2 and an Italian winner must defend
(10 ITALIA (RSI)). A set-up action before turn 1, once: it replaces the roles chosen when the
battle was created."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from campaigns.models import SkirmishBattle, SkirmishEvent, SkirmishSide
from campaigns.rosters.engine import PARABELLUM
from campaigns.services.skirmish.common import (
    all_dice_used,
    battle_sides,
    engine_errors,
    log_roll,
    playing,
)
from rules.dice import DiceSource
from rules.i18n import msg
from rules.parabellum.battle import assign_roles, roll_for_roles
from rules.parabellum.roster import Roster as PBRoster

ROLE_WORDS = {"attacker": msg("attacker"), "defender": msg("defender")}


def pb_role_roll(
    *, battle: SkirmishBattle, actor, winner_role: str = "", dice: DiceSource
) -> SkirmishEvent:
    """Roll for the roles; `winner_role`: the role the winner takes (an Italian winner
    defends whatever is given; none given and not forced: refused, asking for it)."""
    if winner_role not in ("", "attacker", "defender"):
        raise ValidationError({"winner_role": [_("Attacker or defender.")]})
    with playing(battle, actor, PARABELLUM) as (battle, _me):
        if battle.tactical or (battle.play or {}).get("roles"):
            raise ValidationError(
                {"__all__": [_("The roles are rolled once, before turn 1 [9.1].")]}
            )
        sides = battle_sides(battle)
        nations = tuple(PBRoster.from_dict(s.snapshot).type.nation for s in sides)
        with engine_errors("winner_role"):
            roll = roll_for_roles(nations, dice)
            roles = assign_roles(roll, winner_role or None)
        all_dice_used(dice)
        if [s.role for s in sides] != list(roles):
            # the roles are unique per battle: swap through a placeholder
            SkirmishSide.objects.filter(pk=sides[0].pk).update(role="-")
            SkirmishSide.objects.filter(pk=sides[1].pk).update(role=roles[1])
            SkirmishSide.objects.filter(pk=sides[0].pk).update(role=roles[0])
        battle.play = {**(battle.play or {}), "roles": {"winner": roll.winner, "roles": roles}}
        battle.save(update_fields=["play"])
        return log_roll(
            battle,
            summary=msg(
                "Roles rolled: %(p)s wins the roll; %(a)s attacks, %(d)s defends",
                p=str(sides[roll.winner].player),
                a=str(sides[roles.index("attacker")].player),
                d=str(sides[roles.index("defender")].player),
            ),
            actor=actor,
            rule="9.1",
            explanation=roll.explanation,
            dice=dice,
        )
