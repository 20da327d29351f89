"""Plumbing shared by the skirmish services: locking, the battle log, dice and engine errors."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from campaigns.i18n import rule_text, say, say_problems
from campaigns.models import SkirmishBattle, SkirmishEvent, SkirmishSide, SkirmishUndo
from campaigns.rosters.engine import jsonable
from rules.dice import DiceSource, EnteredDice, ServerDice, parse_entry
from rules.errors import DiceError, RollNeeded, RuleError, TableDataError
from rules.explain import DecisionRequired, Explanation
from rules.i18n import Msg, msg


def lock_battle(battle_id: int) -> SkirmishBattle:
    return SkirmishBattle.objects.select_for_update().get(pk=battle_id)


def log_event(
    battle: SkirmishBattle,
    *,
    kind: str,
    summary: str | Msg,
    actor=None,
    rule: str = "",
    data: dict | None = None,
    private_to: SkirmishSide | None = None,
) -> SkirmishEvent:
    """One event in the battle log; `number` counts public events only (see `append_log`).

    A `summary` given as a message is kept in `data["msg"]` and drawn in each reader's
    language (`{{ event|say_entry }}`); the `summary` column keeps the English text."""
    if isinstance(summary, Msg):
        data = {**(data or {}), "msg": summary.as_dict()}
    last = SkirmishEvent.objects.filter(battle=battle).aggregate(seq=Max("seq"), n=Max("number"))
    return SkirmishEvent.objects.create(
        battle=battle,
        seq=(last["seq"] or 0) + 1,
        number=None if private_to is not None else (last["n"] or 0) + 1,
        kind=kind,
        actor=actor if actor is not None and actor.is_authenticated else None,
        summary=str(summary)[:300],
        rule=rule[:60],
        data=jsonable(data or {}),
        private_to=private_to,
    )


def log_roll(
    battle: SkirmishBattle,
    *,
    summary: str | Msg,
    actor,
    rule: str,
    explanation: Explanation,
    dice: DiceSource,
    **data,
) -> SkirmishEvent:
    """A rolled procedure in the log, with the engine's explanation and the dice used."""
    return log_event(
        battle,
        kind=SkirmishEvent.Kind.ROLL,
        summary=summary,
        actor=actor,
        rule=rule,
        data={"explanation": explanation.as_list(), "rolls": rolls(dice), **data},
    )


def dice_from(mode: str, entered: str = "") -> DiceSource:
    """Server dice, or the rolls typed in order, separated by ';' (e.g. "3 5 6; 2 3 5")."""
    if mode == "server":
        return ServerDice()
    if mode != "entered":
        raise ValidationError({"dice_mode": [_("Choose server dice or entered dice.")]})
    try:
        entries = [parse_entry(p) for p in re.split(r"[;\n]+", entered or "") if p.strip()]
    except DiceError as exc:
        raise ValidationError({"dice": [str(exc)]}) from None
    return EnteredDice(entries)


@contextmanager
def engine_errors(field: str = "__all__") -> Iterator[None]:
    """Turn the engine's refusals into a ValidationError naming the form field."""
    try:
        yield
    except RollNeeded as need:
        raise ValidationError(
            {
                "dice": [
                    _("Enter the next roll: %(purpose)s (%(kind)s).")
                    % {"purpose": say(need.purpose), "kind": need.kind}
                ]
            }
        ) from None
    except DiceError as exc:
        raise ValidationError({"dice": [rule_text(exc)]}) from None
    except TableDataError as exc:
        raise ValidationError({field: say_problems(exc.problems)}) from None
    except RuleError as exc:
        raise ValidationError({field: [rule_text(exc)]}) from None
    except DecisionRequired as exc:
        decision = exc.decision
        raise ValidationError({field: [f"[{decision.rule}] {say(decision.prompt)}"]}) from None


def all_dice_used(dice: DiceSource) -> None:
    if isinstance(dice, EnteredDice) and dice.remaining:
        raise ValidationError(
            {
                "dice": [
                    _("%(n)s entered roll(s) were not needed: check the dice.")
                    % {"n": dice.remaining}
                ]
            }
        )


def rolls(dice: DiceSource | None) -> list[dict]:
    return [r.as_dict() for r in getattr(dice, "history", [])]


def pct(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"


def battle_sides(battle: SkirmishBattle) -> list[SkirmishSide]:
    return list(SkirmishSide.objects.filter(battle=battle).select_related("player", "roster"))


def acting_side(battle: SkirmishBattle, actor) -> SkirmishSide:
    side = SkirmishSide.objects.filter(battle=battle, player_id=getattr(actor, "pk", None)).first()
    if side is None:
        raise ValidationError({"__all__": [_("Only the battle's players may do this.")]})
    return side


def check_playing(battle: SkirmishBattle, system: str | None = None) -> None:
    if battle.status != SkirmishBattle.Status.PLAYING:
        raise ValidationError({"__all__": [_("The battle is not being played.")]})
    if system and battle.system != system:
        raise ValidationError({"__all__": [_("That procedure belongs to another game.")]})


BATTLE_STATE = (
    "scenario",
    "weather",
    "construction",
    "tactical",
    "turns",
    "score",
    "play",
    "readings",
)
SIDE_STATE = ("role", "po", "start_po", "casualties", "calls", "units")


def state_of(battle: SkirmishBattle) -> dict:
    """What an action may change in a battle being played: the battle's and each side's
    state, to put back by an undo."""
    sides = SkirmishSide.objects.filter(battle=battle).order_by("index")
    return {
        "battle": {f: getattr(battle, f) for f in BATTLE_STATE},
        "sides": {str(s.index): {f: getattr(s, f) for f in SIDE_STATE} for s in sides},
    }


@contextmanager
def playing(
    battle: SkirmishBattle, actor, system: str
) -> Iterator[tuple[SkirmishBattle, SkirmishSide]]:
    """One transaction with the battle locked, being played under `system`; yields the locked
    battle and the actor's side. What the action changed can be undone once (`skirmish_undo`):
    the state before it is kept, with the first event it logged."""
    with transaction.atomic():
        battle = lock_battle(battle.pk)
        check_playing(battle, system)
        before = state_of(battle)
        last_seq = SkirmishEvent.objects.filter(battle=battle).aggregate(m=Max("seq"))["m"] or 0
        yield battle, acting_side(battle, actor)
        first = SkirmishEvent.objects.filter(battle=battle, seq__gt=last_seq).order_by("seq")
        event = first.first()
        if event is not None:
            SkirmishUndo.objects.update_or_create(
                battle=battle,
                defaults={"event": event, "actor": actor, "before": jsonable(before)},
            )


def result_msg(winner_index: int | None, index: int) -> Msg:
    """How the battle went for side `index`, as a message for the logs."""
    if winner_index == index:
        return msg("won")
    return msg("drew") if winner_index is None else msg("lost")


SIDE_ROLES = {"attacker": msg("the attacker"), "defender": msg("the defender")}


def role_msg(role: str) -> Msg | str:
    """ "the attacker" / "the defender" as a message."""
    return SIDE_ROLES.get(role, role)
