"""Opening, joining and cancelling a battle, and closing it with a note in each roster's
history."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.models import (
    Campaign,
    Roster,
    RosterChange,
    SkirmishBattle,
    SkirmishEvent,
    SkirmishSide,
)
from campaigns.rosters.engine import (
    ARMY_KEY,
    M1936,
    PARABELLUM,
    m36_army_list,
    m36_army_options,
    pb_report,
)
from campaigns.services.rosters import lock_roster, lock_rosters, record_change
from campaigns.services.skirmish.common import (
    battle_sides,
    lock_battle,
    log_event,
    result_msg,
    role_msg,
)
from rules.i18n import msg
from rules.m1936.validation import validate_army
from rules.parabellum.labels import joined
from rules.parabellum.labels import soldier_name as soldier_label

ROLES = ("attacker", "defender")


def _roster_usable(roster: Roster, user, system: str) -> dict[str, Any]:
    if roster.owner_id != user.pk:
        raise ValidationError({"roster": [_("Field one of your own rosters.")]})
    if roster.system != system:
        raise ValidationError({"roster": [_("That roster is for another game.")]})
    if roster.archived_at is not None:
        raise ValidationError({"roster": [_("That roster is archived.")]})
    if system == PARABELLUM:
        report = pb_report(roster.data, roster.house_rules)
        if not report["valid"]:
            raise ValidationError(
                {"roster": [_("The roster is not valid yet: fix it in the builder first.")]}
            )
        return {"start_po": report["starting_po"]}
    check = validate_army(m36_army_list(roster.data), m36_army_options(roster.house_rules))
    if not check.valid:
        raise ValidationError(
            {"roster": [_("The army list is not valid yet: fix it in the builder first.")]}
        )
    return {"start_po": 0}


def _snapshot(roster: Roster) -> dict[str, Any]:
    """The roster as fielded; a 1936 list keeps the army-list readings it was checked with
    (`house_rules["army"]`, read back by `m36_army_options(snapshot)`)."""
    readings = (roster.house_rules or {}).get(ARMY_KEY) if roster.system == M1936 else None
    return {**roster.data, ARMY_KEY: readings} if readings else roster.data


def skirmish_create(
    *,
    creator,
    roster: Roster,
    role: str,
    opponent,
    mode: str = "",
    title: str = "",
    campaign: Campaign | None = None,
) -> SkirmishBattle:
    """Open a battle with the creator's roster; the opponent joins with theirs."""
    system = roster.system
    errors: dict[str, list[str]] = {}
    if role not in ROLES:
        errors["role"] = [_("Choose attacker or defender.")]
    if system == PARABELLUM and mode not in SkirmishBattle.Mode.values:
        errors["mode"] = [_("Choose the simple, orders or open game.")]
    if opponent is None or opponent.pk == creator.pk:
        errors["opponent"] = [_("Name another player as the opponent.")]
    if campaign is not None and campaign.system != system:
        errors["campaign"] = [_("That campaign plays another game system.")]
    if errors:
        raise ValidationError(errors)
    with transaction.atomic():
        locked = lock_roster(roster.pk)
        info = _roster_usable(locked, creator, system)
        battle = SkirmishBattle.objects.create(
            system=system,
            mode=mode if system == PARABELLUM else "",
            title=(title or "").strip()[:120],
            created_by=creator,
            campaign=campaign,
        )
        other = "defender" if role == "attacker" else "attacker"
        SkirmishSide.objects.create(
            battle=battle,
            index=0,
            role=role,
            player=creator,
            roster=locked,
            snapshot=_snapshot(locked),
            start_po=info["start_po"],
            po=info["start_po"],
        )
        SkirmishSide.objects.create(battle=battle, index=1, role=other, player=opponent)
        log_event(
            battle,
            kind=SkirmishEvent.Kind.SETUP,
            summary=msg(
                "%(p)s opens the battle as %(r)s with “%(n)s”; waiting for %(o)s.",
                p=str(creator),
                r=role_msg(role),
                n=locked.name,
                o=str(opponent),
            ),
            actor=creator,
            rule="9.1" if system == PARABELLUM else "M36-II",
        )
    return battle


def skirmish_join(*, battle: SkirmishBattle, actor, roster: Roster) -> SkirmishBattle:
    with transaction.atomic():
        battle = lock_battle(battle.pk)
        side = SkirmishSide.objects.filter(battle=battle, index=1).first()
        if battle.status != SkirmishBattle.Status.SETUP or side is None:
            raise ValidationError({"__all__": [_("This battle has already started.")]})
        if side.player_id != actor.pk:
            raise ValidationError({"__all__": [_("Only the invited opponent may join.")]})
        locked = lock_roster(roster.pk)
        info = _roster_usable(locked, actor, battle.system)
        side.roster = locked
        side.snapshot = _snapshot(locked)
        side.start_po = side.po = info["start_po"]
        side.save(update_fields=["roster", "snapshot", "start_po", "po"])
        battle.status = SkirmishBattle.Status.PLAYING
        battle.save(update_fields=["status"])
        log_event(
            battle,
            kind=SkirmishEvent.Kind.SETUP,
            summary=msg(
                "%(p)s joins as %(r)s with “%(n)s”. The battle begins.",
                p=str(actor),
                r=role_msg(side.role),
                n=locked.name,
            ),
            actor=actor,
        )
        if battle.system == PARABELLUM:
            for s in battle_sides(battle):
                log_event(
                    battle,
                    kind=SkirmishEvent.Kind.SETUP,
                    summary=msg("%(p)s starts with %(po)s PO.", p=str(s.player), po=s.start_po),
                    rule="8.2.4",
                )
    return battle


def skirmish_cancel(*, battle: SkirmishBattle, actor) -> None:
    """Delete a battle nobody has joined yet (its creator only)."""
    with transaction.atomic():
        battle = lock_battle(battle.pk)
        if battle.created_by_id != actor.pk or battle.status != SkirmishBattle.Status.SETUP:
            raise ValidationError(
                {"__all__": [_("Only an unjoined battle can be cancelled, by its creator.")]}
            )
        battle.delete()


def close_battle(battle: SkirmishBattle, winner_index: int | None, now: datetime, **fields) -> None:
    """Mark the battle finished (and revealed) at `now` with its winner and `fields`."""
    battle.status = SkirmishBattle.Status.FINISHED
    battle.finished_at = battle.revealed_at = now
    for name, value in fields.items():
        setattr(battle, name, value)
    battle.winner_index = winner_index
    battle.save(update_fields=["status", "finished_at", "revealed_at", *fields, "winner_index"])


def record_battle_history(battle: SkirmishBattle, sides: list[SkirmishSide], actor) -> None:
    """A note of the finished battle in each side's roster history."""
    rosters = lock_rosters(s.roster_id for s in sides)
    for s in sides:
        if s.roster_id is None:
            continue
        roster = rosters[s.roster_id]
        fought = {
            "b": str(battle),
            "r": role_msg(s.role),
            "res": result_msg(battle.winner_index, s.index),
        }
        if battle.system == PARABELLUM:
            lost = [
                soldier_label(c["soldier_id"]) for c in s.casualties if c.get("healed_turn") is None
            ]
            summary = msg(
                "Fought %(b)s as %(r)s: %(res)s; casualties: %(l)s",
                l=joined(lost) or msg("nobody"),
                **fought,
            )
        else:
            summary = msg("Fought %(b)s as %(r)s: %(res)s", **fought)
        record_change(
            roster,
            kind=RosterChange.Kind.BATTLE,
            summary=summary,
            actor=actor,
            battle=battle,
        )
