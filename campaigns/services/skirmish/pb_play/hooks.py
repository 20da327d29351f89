"""The turn flow inside the attack procedures (shot, assault, grenade, projector): an attack
by the soldier being activated spends its PA through the rules' `act` (refused beyond its
limits); what the ledgers know about the target (suppressed) is taken from them; results
(suppressed, eliminated) are written back. Without the turn flow in use, or for a soldier not
being activated (a reaction shot, a shot logged by hand), the procedures work as before."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from campaigns.models import SkirmishBattle
from campaigns.services.skirmish.common import engine_errors
from campaigns.services.skirmish.pb_play.state import engaged, load, options_of, save
from rules.parabellum.activation import act, set_state


def _key(value: str) -> tuple[int, str]:
    side, _sep, sid = str(value).partition(":")
    return int(side), sid


def before_attack(
    battle: SkirmishBattle,
    troops,
    attacker: str,
    action: str,
    *,
    field: str,
    target: str | None = None,
    distance_cm: float | None = None,
    reaction: bool = False,
    mg42_assisted: bool = False,
) -> dict:
    """Spend the attacker's PA when he is being activated; the facts the ledgers know:
    `target_suppressed`, and `aimed` for a shot after an aim."""
    if not engaged(battle):
        return {}
    sides = [t.side for t in troops]
    play = load(battle, sides)
    facts: dict = {}
    if target:
        t_index, t_sid = _key(target)
        rec = play.ledgers[t_index].soldiers.get(t_sid)
        if rec is not None:
            facts["target_suppressed"] = rec.suppressed
    index, sid = _key(attacker)
    ledger = play.ledgers[index]
    a = ledger.active
    if a is None or a.soldier_id != sid or reaction:
        if mg42_assisted and not reaction:
            raise ValidationError(
                {"mg42_assisted": [_("The MG42 bonus is for the activated gunner's shots.")]}
            )
        return facts
    with engine_errors(field):
        step = act(
            ledger,
            play.rosters[index],
            action,
            target_distance_cm=distance_cm,
            target_suppressed=bool(facts.get("target_suppressed")),
            options=options_of(battle),
        )
    play.ledgers[index] = step.side
    if action == "shoot":
        facts["aimed"] = a.aimed
    save(battle, sides, play)
    return facts


def after_attack(battle: SkirmishBattle, troops, results: list[tuple[str, str]]) -> None:
    """Write the outcomes ("side:soldier", outcome) into the ledgers."""
    if not engaged(battle) or not results:
        return
    sides = [t.side for t in troops]
    play = load(battle, sides)
    for key, outcome in results:
        index, sid = _key(key)
        if sid not in play.ledgers[index].soldiers or outcome == "unharmed":
            continue
        play.ledgers[index] = set_state(
            play.ledgers[index],
            sid,
            suppressed=True if outcome == "suppressed" else None,
            out=True if outcome == "eliminated" else None,
        )
    save(battle, sides, play)
