"""After a finished battle: each player applies the house rules to their own roster, once
(Parabellum HR-1…HR-4; España 1936 unit conditions carried over)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.models import Roster, RosterChange, SkirmishBattle, SkirmishEvent, SkirmishSide
from campaigns.rosters.engine import (
    M1936,
    PARABELLUM,
    m36_army_list,
    m36_house_rules,
    pb_house_rules,
)
from campaigns.services.rosters import lock_roster, record_change, state_of
from campaigns.services.skirmish.common import (
    acting_side,
    all_dice_used,
    battle_sides,
    engine_errors,
    lock_battle,
    log_event,
    rolls,
)
from campaigns.services.skirmish.parabellum import engine_battle
from rules.dice import DiceSource
from rules.explain import Explanation
from rules.i18n import msg, nmsg
from rules.m1936.house_rules import UnitCondition, carry_over
from rules.parabellum.house_rules import apply_post_battle, outcome_for
from rules.parabellum.roster import Roster as PBRoster


@contextmanager
def _own_roster(
    battle: SkirmishBattle, actor, system: str, *, too_early: str, already: str
) -> Iterator[tuple[SkirmishBattle, SkirmishSide, Roster]]:
    """One transaction with the finished battle locked; yields it, the actor's side (not yet
    applied) and that side's roster, locked."""
    with transaction.atomic():
        battle = lock_battle(battle.pk)
        if battle.status != SkirmishBattle.Status.FINISHED or battle.system != system:
            raise ValidationError({"__all__": [too_early]})
        side = acting_side(battle, actor)
        if side.applied_at is not None:
            raise ValidationError({"__all__": [already]})
        if side.roster_id is None:
            raise ValidationError({"__all__": [_("Your roster no longer exists.")]})
        yield battle, side, lock_roster(side.roster_id)


def _record_applied(
    battle: SkirmishBattle, side: SkirmishSide, roster: Roster, field: str, actor, **change
) -> RosterChange:
    """Save the roster's changed `field`, mark the side applied, and note it in the history."""
    roster.save(update_fields=[field, "updated_at"])
    side.applied_at = timezone.now()
    side.save(update_fields=["applied_at"])
    return record_change(
        roster,
        kind=RosterChange.Kind.POST_BATTLE,
        actor=actor,
        after=state_of(roster),
        battle=battle,
        **change,
    )


def skirmish_apply_house_rules(*, battle: SkirmishBattle, actor, dice: DiceSource) -> RosterChange:
    """Apply the roster's campaign house rules after a finished Parabellum battle (HR-1…HR-4,
    off by default: with all off the roster is unchanged). Once per side."""
    with _own_roster(
        battle,
        actor,
        PARABELLUM,
        too_early=_("Apply house rules after the battle is over."),
        already=_("The house rules were already applied to your roster."),
    ) as (battle, side, roster):
        record = engine_battle(battle, battle_sides(battle))
        outcome = outcome_for(record, side.index)
        hr = pb_house_rules(roster.house_rules)
        current = PBRoster.from_dict(roster.data)
        known = {s.id for s in current.soldiers}
        outcome = type(outcome)(
            eliminated=tuple(x for x in outcome.eliminated if x in known),
            fought=tuple(x for x in outcome.fought if x in known),
            po_left=outcome.po_left,
        )
        with engine_errors():
            post = apply_post_battle(current, outcome, hr, dice)
        all_dice_used(dice)
        before = state_of(roster)
        roster.data = post.roster.to_dict()
        texts = [c.text for c in post.changes]
        change = _record_applied(
            battle,
            side,
            roster,
            "data",
            actor,
            summary=msg("House rules after %(b)s: %(t)s", b=str(battle), t=texts)
            if texts
            else msg(
                "No house rule switched on: the roster is unchanged after %(b)s", b=str(battle)
            ),
            rule="HR",
            before=before,
            explanation=post.explanation.as_list(),
        )
        log_event(
            battle,
            kind=SkirmishEvent.Kind.RULE,
            summary=msg(
                "House rules applied to “%(n)s”: %(t)s",
                n=str(roster.name),
                t=texts or msg("no change"),
            ),
            actor=actor,
            rule="HR",
            data={"explanation": post.explanation.as_list(), "rolls": rolls(dice)},
        )
    return change


def m36_post_battle(
    *, battle: SkirmishBattle, actor, conditions: dict[int, dict[str, Any]]
) -> RosterChange:
    """Each unit's condition at the end, carried over under the roster's house rules
    (all off by default: every unit starts the next battle as bought)."""
    with _own_roster(
        battle,
        actor,
        M1936,
        too_early=_("Enter unit conditions after the battle is over."),
        already=_("The conditions were already applied to your list."),
    ) as (battle, side, roster):
        army = m36_army_list(roster.data)
        house = m36_house_rules(roster.house_rules)
        before = state_of(roster)
        ex = Explanation()
        kept: dict[str, Any] = {}
        for index, raw in sorted(conditions.items()):
            if not 0 <= index < len(army.entries):
                raise ValidationError(
                    {"conditions": [_("No unit number %(n)s.") % {"n": index + 1}]}
                )
            casualties = raw.get("casualties", 0)
            if not isinstance(casualties, int) or casualties < 0:
                raise ValidationError({"conditions": [_("Casualties are 0 or more.")]})
            after = UnitCondition(
                casualties=casualties,
                decimated=bool(raw.get("decimated")),
                destroyed=bool(raw.get("destroyed")),
            )
            result = carry_over(after, house)
            for step in result.explanation:
                ex.add(
                    step.rule,
                    f"unit {index + 1} ({army.entries[index].profile}): {step.text}",
                    step.value,
                )
            if result.condition != UnitCondition():
                kept[str(index)] = result.condition.to_dict()
        roster.condition = kept
        return _record_applied(
            battle,
            side,
            roster,
            "condition",
            actor,
            summary=nmsg(
                "Carry-over after %(b)s: %(n)s unit starts the next battle marked",
                "Carry-over after %(b)s: %(n)s units start the next battle marked",
                len(kept),
                b=str(battle),
            ),
            rule="HOUSE-M36-carry-over",
            before=before,
            explanation=ex.as_list(),
        )
