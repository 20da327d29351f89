"""Skirmish battles between two rosters: set-up, sealed orders, in-battle procedures with
logged dice, the result and its consequences for the rosters.

Every function is keyword-only, runs in one transaction with the battle row locked (two
players acting at once cannot double-apply anything), and appends `SkirmishEvent`s with the
engine's explanation and dice. Dice come from the server (cryptographic RNG) or are entered
from the table (a Parabellum 3D6 as three faces). Nothing is saved when the engine refuses an
input; the error names the form field.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.models import (
    Campaign,
    Roster,
    RosterChange,
    SealedOrders,
    SkirmishBattle,
    SkirmishEvent,
    SkirmishSide,
)
from campaigns.models.rosters import SkirmishCorrection
from campaigns.rosters.engine import (
    M1936,
    PARABELLUM,
    jsonable,
    m36_army_list,
    m36_house_rules,
    pb_house_rules,
    pb_report,
)
from campaigns.rosters.permissions import is_organiser
from campaigns.services.rosters import lock_roster, record_change, state_of, undo_change
from rules.dice import DiceSource, Distribution, EnteredDice, ServerDice, parse_entry
from rules.errors import DiceError, RollNeeded, RuleError, TableDataError
from rules.explain import DecisionRequired, Explanation
from rules.m1936 import bogging as m36b
from rules.m1936 import construction as m36c
from rules.m1936 import morale as m36m
from rules.m1936 import scenario as m36s
from rules.m1936 import weather as m36w
from rules.m1936.army import effective_rules
from rules.m1936.data import catalogue
from rules.m1936.house_rules import UnitCondition, carry_over
from rules.m1936.performance import performance_result
from rules.m1936.validation import validate_army
from rules.parabellum import assault as pba
from rules.parabellum import evasion as pbe
from rules.parabellum import explosives as pbx
from rules.parabellum import shooting as pbs
from rules.parabellum import supports as pbsup
from rules.parabellum.battle import (
    DIRECTIVES,
    PRIORITY_ORDERS,
    TURNS,
    Battle,
    BattleSide,
    Casualty,
    ModelState,
    SideState,
    TurnState,
    tactical_phase,
    validate_battle,
)
from rules.parabellum.data import nation, weapon
from rules.parabellum.house_rules import apply_post_battle, outcome_for
from rules.parabellum.roster import Roster as PBRoster
from rules.parabellum.roster import soldier_weapon
from rules.parabellum.victory import DIRECTIVE_NAMES, PRIORITY_NAMES, score_battle

ROLES = ("attacker", "defender")
MODEL_FLAGS = tuple(f for f in ModelState.__dataclass_fields__ if f != "soldier_id")


# --- plumbing --------------------------------------------------------------------------------


def lock_battle(battle_id: int) -> SkirmishBattle:
    return SkirmishBattle.objects.select_for_update().get(pk=battle_id)


def log_event(
    battle: SkirmishBattle,
    *,
    kind: str,
    summary: str,
    actor=None,
    rule: str = "",
    data: dict | None = None,
    private_to: SkirmishSide | None = None,
) -> SkirmishEvent:
    last = SkirmishEvent.objects.filter(battle=battle).aggregate(m=Max("seq"))["m"] or 0
    return SkirmishEvent.objects.create(
        battle=battle,
        seq=last + 1,
        kind=kind,
        actor=actor if actor is not None and actor.is_authenticated else None,
        summary=summary[:300],
        rule=rule[:60],
        data=jsonable(data or {}),
        private_to=private_to,
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
                    % {"purpose": need.purpose, "kind": need.kind}
                ]
            }
        ) from None
    except DiceError as exc:
        raise ValidationError({"dice": [str(exc)]}) from None
    except TableDataError as exc:
        raise ValidationError({field: [f"{p}: {m}" if p else m for p, m in exc.problems]}) from None
    except RuleError as exc:
        raise ValidationError({field: [str(exc)]}) from None
    except DecisionRequired as exc:
        raise ValidationError({field: [f"[{exc.decision.rule}] {exc.decision.prompt}"]}) from None


def _all_dice_used(dice: DiceSource) -> None:
    if isinstance(dice, EnteredDice) and dice.remaining:
        raise ValidationError(
            {
                "dice": [
                    _("%(n)s entered roll(s) were not needed: check the dice.")
                    % {"n": dice.remaining}
                ]
            }
        )


def _rolls(dice: DiceSource) -> list[dict]:
    return [r.as_dict() for r in getattr(dice, "history", [])]


def _pct(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"


def _sides(battle: SkirmishBattle) -> list[SkirmishSide]:
    return list(SkirmishSide.objects.filter(battle=battle).select_related("player", "roster"))


def _player_side(battle: SkirmishBattle, actor) -> SkirmishSide:
    side = SkirmishSide.objects.filter(battle=battle, player_id=getattr(actor, "pk", None)).first()
    if side is None:
        raise ValidationError({"__all__": [_("Only the battle's players may do this.")]})
    return side


def _playing(battle: SkirmishBattle, system: str | None = None) -> None:
    if battle.status != SkirmishBattle.Status.PLAYING:
        raise ValidationError({"__all__": [_("The battle is not being played.")]})
    if system and battle.system != system:
        raise ValidationError({"__all__": [_("That procedure belongs to another game.")]})


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
    check = validate_army(m36_army_list(roster.data))
    if not check.valid:
        raise ValidationError(
            {"roster": [_("The army list is not valid yet: fix it in the builder first.")]}
        )
    return {"start_po": 0}


# --- set-up ----------------------------------------------------------------------------------


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
            snapshot=locked.data,
            start_po=info["start_po"],
            po=info["start_po"],
        )
        SkirmishSide.objects.create(battle=battle, index=1, role=other, player=opponent)
        log_event(
            battle,
            kind=SkirmishEvent.Kind.SETUP,
            summary=_("%(p)s opens the battle as %(r)s with “%(n)s”; waiting for %(o)s.")
            % {"p": creator, "r": role, "n": locked.name, "o": opponent},
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
        side.snapshot = locked.data
        side.start_po = side.po = info["start_po"]
        side.save(update_fields=["roster", "snapshot", "start_po", "po"])
        battle.status = SkirmishBattle.Status.PLAYING
        battle.save(update_fields=["status"])
        log_event(
            battle,
            kind=SkirmishEvent.Kind.SETUP,
            summary=_("%(p)s joins as %(r)s with “%(n)s”. The battle begins.")
            % {"p": actor, "r": side.role, "n": locked.name},
            actor=actor,
        )
        if battle.system == PARABELLUM:
            for s in _sides(battle):
                log_event(
                    battle,
                    kind=SkirmishEvent.Kind.SETUP,
                    summary=_("%(p)s starts with %(po)s PO.") % {"p": s.player, "po": s.start_po},
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


def skirmish_orders_submit(
    *, battle: SkirmishBattle, actor, priority_order: int | None, directives: list[int]
) -> SealedOrders:
    """Sealed priority order and two officer directives (§9.2). `priority_order=None` has the
    server draw a card the opponent does not hold. Private until the battle ends."""
    with transaction.atomic():
        battle = lock_battle(battle.pk)
        _playing(battle, PARABELLUM)
        if battle.mode != SkirmishBattle.Mode.ORDERS:
            raise ValidationError({"__all__": [_("Only the orders game has secret orders.")]})
        side = _player_side(battle, actor)
        if SealedOrders.objects.filter(side=side).exists():
            raise ValidationError({"__all__": [_("Your orders are already sealed.")]})
        clean = sorted({int(d) for d in directives if str(d).isdigit()})
        if len(clean) != 2 or not set(clean) <= set(DIRECTIVES):
            raise ValidationError({"directives": [_("Choose exactly two different directives.")]})
        taken = set(
            SealedOrders.objects.filter(side__battle=battle).values_list(
                "priority_order", flat=True
            )
        )
        drawn = priority_order is None
        if drawn:
            pool = [o for o in PRIORITY_ORDERS if o not in taken]
            roll = ServerDice().roll(f"d{len(pool)}", purpose="priority order card", rule="9.2")
            priority_order = pool[roll.value - 1]
        elif priority_order not in PRIORITY_ORDERS:
            raise ValidationError({"priority_order": [_("A priority order is 1, 2 or 3.")]})
        elif priority_order in taken:
            raise ValidationError(
                {"priority_order": [_("Each player draws a different card: check your draw.")]}
            )
        orders = SealedOrders.objects.create(
            side=side,
            priority_order=priority_order,
            directives=clean,
            drawn_by_server=drawn,
            submitted_by=actor,
        )
        log_event(
            battle,
            kind=SkirmishEvent.Kind.SETUP,
            summary=_("%(p)s sealed their orders.") % {"p": actor},
            actor=actor,
            rule="9.2",
        )
        log_event(
            battle,
            kind=SkirmishEvent.Kind.SETUP,
            summary=_("Your sealed orders: priority %(o)s (%(on)s); directives %(d)s")
            % {
                "o": priority_order,
                "on": PRIORITY_NAMES[priority_order],
                "d": "; ".join(f"{d} {DIRECTIVE_NAMES[d]}" for d in clean),
            },
            actor=actor,
            rule="9.2",
            private_to=side,
        )
    return orders


# --- Parabellum procedures -------------------------------------------------------------------


@dataclass(eq=False)
class Troop:
    side: SkirmishSide
    roster: PBRoster

    def soldier(self, soldier_id: str, field: str):
        try:
            s = self.roster.soldier(soldier_id)
        except RuleError:
            raise ValidationError(
                {field: [_("No soldier %(s)s on that side.") % {"s": soldier_id}]}
            ) from None
        if s.status != "active":
            raise ValidationError({field: [_("%(s)s is not in this battle.") % {"s": soldier_id}]})
        return s

    def down(self, soldier_id: str) -> bool:
        return any(
            c["soldier_id"] == soldier_id and c.get("healed_turn") is None
            for c in self.side.casualties
        )

    def target(self, soldier_id: str, field: str, hit_the_dirt: bool) -> pbe.Target:
        s = self.soldier(soldier_id, field)
        return pbe.Target(soldier_id, s.experience, s.role == "officer", hit_the_dirt)


def _troops(battle: SkirmishBattle) -> list[Troop]:
    return [Troop(s, PBRoster.from_dict(s.snapshot)) for s in _sides(battle)]


def _find(troops: list[Troop], soldier_id: str, field: str) -> Troop:
    side, _sep, sid = soldier_id.partition(":")
    if not side.isdigit() or int(side) not in (0, 1):
        raise ValidationError({field: [_("Choose a soldier from the list.")]})
    troop = troops[int(side)]
    troop.soldier(sid, field)
    return troop


def _sid(value: str) -> str:
    return value.partition(":")[2]


def _kill(troop: Troop, soldier_id: str, turn: int, cause: str) -> bool:
    if troop.down(soldier_id):
        return False
    troop.side.casualties = [
        *troop.side.casualties,
        {"soldier_id": soldier_id, "turn": turn, "cause": cause},
    ]
    return True


def _spend(troop: Troop, po: int, why: str) -> None:
    if po > troop.side.po:
        raise ValidationError(
            {
                "hit_the_dirt": [
                    _("%(why)s needs %(n)s PO; only %(have)s left.")
                    % {"why": why, "n": po, "have": troop.side.po}
                ]
            }
        )
    troop.side.po -= po


def _check_turn(turn: int) -> None:
    if not isinstance(turn, int) or not 1 <= turn <= TURNS:
        raise ValidationError({"turn": [_("A turn from 1 to %(n)s.") % {"n": TURNS}]})


@dataclass
class Preview:
    """Exact odds of a procedure before anything is rolled."""

    lines: list[tuple[str, str]]


def _odds_lines(label: str, odds: dict[str, Fraction]) -> tuple[str, str]:
    return label, ", ".join(f"{k} {_pct(p)}" for k, p in odds.items() if p) or "—"


def _shot(troops, shooter: str, target: str, params: dict[str, Any]):
    s_troop = _find(troops, shooter, "shooter")
    t_troop = _find(troops, target, "target")
    if s_troop is t_troop:
        raise ValidationError({"target": [_("Choose an enemy soldier as the target.")]})
    soldier = s_troop.soldier(_sid(shooter), "shooter")
    tgt = t_troop.soldier(_sid(target), "target")
    with engine_errors("distance_cm"):
        shot = pbs.Shot(
            weapon=soldier_weapon(s_troop.roster, soldier),
            distance_cm=float(params["distance_cm"]),
            cover=params.get("cover") or "none",
            reaction=bool(params.get("reaction")),
            aimed=bool(params.get("aimed")),
            shooter_experience=soldier.experience,
            target_suppressed=bool(params.get("target_suppressed")),
            target_double_time_cm=params.get("target_double_time_cm"),
            mg42_assisted=bool(params.get("mg42_assisted")),
        )
        pbs.shot_modifier(shot)
    return s_troop, t_troop, soldier, tgt, shot


def shot_preview(*, battle: SkirmishBattle, shooter: str, target: str, **params) -> Preview:
    troops = _troops(battle)
    _s, _t, _soldier, tgt, shot = _shot(troops, shooter, target, params)
    with engine_errors("distance_cm"):
        odds = pbs.shot_odds(shot)
        ex = Explanation()
        mod = pbs.shot_modifier(shot, ex)
        full = pbs.attack_odds(shot, tgt.experience)
    return Preview(
        [
            (_("Weapon"), f"{shot.weapon.model} ({shot.weapon.range_cm} cm)"),
            (
                _("Modifiers"),
                "; ".join(
                    f"[{s.rule}] {s.text} {s.value:+d}" for s in ex if isinstance(s.value, int)
                )
                or "0",
            ),
            (
                _("Shot succeeds (11+ or a triple)"),
                f"{_pct(odds.success)} (total modifier {mod:+d})",
            ),
            (_("Critical (triple)"), _pct(odds.critical)),
            _odds_lines(_("Target after evasion (no hit the dirt)"), full),
        ]
    )


def skirmish_shoot(
    *,
    battle: SkirmishBattle,
    actor,
    turn: int,
    shooter: str,
    target: str,
    hit_the_dirt: bool = False,
    dice: DiceSource,
    **params,
) -> SkirmishEvent:
    """One shot (§6.1, §6.2) and the target's evasion; an elimination becomes a casualty."""
    _check_turn(turn)
    with transaction.atomic():
        battle = lock_battle(battle.pk)
        _playing(battle, PARABELLUM)
        _player_side(battle, actor)
        troops = _troops(battle)
        _s_troop, t_troop, soldier, _tgt, shot = _shot(troops, shooter, target, params)
        target_id = _sid(target)
        if t_troop.down(target_id):
            raise ValidationError({"target": [_("%(s)s is already down.") % {"s": target_id}]})
        ex = Explanation()
        outcome = "unharmed"
        with engine_errors("hit_the_dirt"):
            result = pbs.resolve_shot(shot, dice)
            ex.extend(result.explanation)
            if result.success:
                ev = pbs.resolve_shot_evasion(
                    result, t_troop.target(target_id, "target", hit_the_dirt), dice
                )
                ex.extend(ev.explanation)
                outcome = ev.outcome
                if ev.po_spent:
                    _spend(t_troop, ev.po_spent, _("Hitting the dirt"))
        _all_dice_used(dice)
        cause = "reaction_shot" if shot.reaction else "shot"
        if outcome == "eliminated":
            _kill(t_troop, target_id, turn, cause)
        t_troop.side.save(update_fields=["casualties", "po"])
        summary = _("Turn %(t)s: %(s)s (%(w)s) shoots %(x)s at %(d)s cm: %(m)s → %(o)s") % {
            "t": turn,
            "s": soldier.id,
            "w": shot.weapon.model,
            "x": target_id,
            "d": shot.distance_cm,
            "m": _("success") if result.success else _("miss"),
            "o": outcome,
        }
        return log_event(
            battle,
            kind=SkirmishEvent.Kind.ROLL,
            summary=summary,
            actor=actor,
            rule="6.1",
            data={
                "explanation": ex.as_list(),
                "rolls": _rolls(dice),
                "roll": result.roll.as_dict(),
                "outcome": outcome,
                "odds": {
                    "success": _pct(result.odds.success),
                    "critical": _pct(result.odds.critical),
                },
            },
        )


def _assault_parts(troops, attacker: str, defender: str, params: dict[str, Any]):
    a_troop = _find(troops, attacker, "attacker")
    d_troop = _find(troops, defender, "defender")
    if a_troop is d_troop:
        raise ValidationError({"defender": [_("Assault an enemy soldier.")]})
    a = a_troop.soldier(_sid(attacker), "attacker")
    d = d_troop.soldier(_sid(defender), "defender")
    movement = params.get("movement") or "cautious"
    if movement not in ("cautious", "double_time"):
        raise ValidationError(
            {"movement": [_("An assault follows a cautious or double-time move.")]}
        )
    assailant = pba.Assailant(
        a.id, movement, a.experience, soldier_weapon(a_troop.roster, a).has("assault")
    )
    assistant = params.get("mg_assistant") or ""
    if assistant:
        if _find(troops, assistant, "mg_assistant") is not d_troop or assistant == defender:
            raise ValidationError(
                {"mg_assistant": [_("The assistant is another soldier of the assaulted side.")]}
            )
        helper = d_troop.soldier(_sid(assistant), "mg_assistant")
        if not soldier_weapon(d_troop.roster, d).has("assistant"):
            raise ValidationError(
                {"mg_assistant": [_("%(s)s does not hold the MG.") % {"s": d.id}]}
            )
        if d_troop.down(helper.id):
            raise ValidationError({"mg_assistant": [_("%(s)s is down.") % {"s": helper.id}]})
        assistant = helper.id
    defenders = [
        pba.Defender(
            d.id,
            d.experience,
            suppressed=bool(params.get("defender_suppressed")),
            assault_weapon=soldier_weapon(d_troop.roster, d).has("assault"),
            heavy_cover=bool(params.get("heavy_cover")),
            marked_by_covering_fire=bool(params.get("marked")),
            mg_assistant=assistant or None,
        )
    ]
    second = params.get("second_defender") or ""
    if second:
        if _find(troops, second, "second_defender") is not d_troop or second == defender:
            raise ValidationError({"second_defender": [_("Another enemy within 3 cm.")]})
        s2 = d_troop.soldier(_sid(second), "second_defender")
        defenders.append(
            pba.Defender(
                s2.id,
                s2.experience,
                suppressed=bool(params.get("second_suppressed")),
                assault_weapon=soldier_weapon(d_troop.roster, s2).has("assault"),
            )
        )
    return a_troop, d_troop, assailant, defenders


def assault_preview(*, battle: SkirmishBattle, attacker: str, defender: str, **params) -> Preview:
    troops = _troops(battle)
    _a, _d, assailant, defenders = _assault_parts(troops, attacker, defender, params)
    order = sorted(defenders, key=lambda d: d.suppressed)
    lines = []
    for k, d in enumerate(order, start=1):
        ex = Explanation()
        odds = pba.bout_odds(
            pba.attacker_modifier(assailant, k, len(order), ex),
            pba.defender_modifier(d, assailant, ex),
        )
        lines.append(
            (
                _("Bout %(k)s vs %(d)s") % {"k": k, "d": d.name},
                _("%(a)s falls %(pa)s · %(d)s falls %(pd)s · both %(pb)s")
                % {
                    "a": assailant.name,
                    "pa": _pct(odds.attacker_eliminated),
                    "d": d.name,
                    "pd": _pct(odds.defender_eliminated),
                    "pb": _pct(odds.both_eliminated),
                },
            )
        )
    return Preview(lines)


def skirmish_assault(
    *, battle: SkirmishBattle, actor, turn: int, attacker: str, defender: str, dice, **params
) -> SkirmishEvent:
    """An assault (§6.3) with consecutive bouts; eliminated soldiers become casualties."""
    _check_turn(turn)
    with transaction.atomic():
        battle = lock_battle(battle.pk)
        _playing(battle, PARABELLUM)
        _player_side(battle, actor)
        troops = _troops(battle)
        a_troop, d_troop, assailant, defenders = _assault_parts(troops, attacker, defender, params)
        with engine_errors("defender"):
            result = pba.resolve_assault(assailant, defenders, dice)
        _all_dice_used(dice)
        for name in result.eliminated:
            troop = a_troop if name == assailant.name else d_troop
            _kill(troop, name, turn, "assault")
        a_troop.side.save(update_fields=["casualties"])
        d_troop.side.save(update_fields=["casualties"])
        return log_event(
            battle,
            kind=SkirmishEvent.Kind.ROLL,
            summary=_("Turn %(t)s: %(a)s assaults %(d)s → eliminated: %(e)s")
            % {
                "t": turn,
                "a": assailant.name,
                "d": ", ".join(d.name for d in defenders),
                "e": ", ".join(result.eliminated) or _("nobody"),
            },
            actor=actor,
            rule="6.3",
            data={"explanation": result.explanation.as_list(), "rolls": _rolls(dice)},
        )


def _area_targets(troops, targets: list[str], dirt: list[str]) -> list[tuple[Troop, pbe.Target]]:
    if not targets:
        raise ValidationError({"targets": [_("Choose the soldiers caught in the area.")]})
    out = []
    for t in targets:
        troop = _find(troops, t, "targets")
        out.append((troop, troop.target(_sid(t), "targets", t in dirt)))
    return out


AREA_ATTACKS = {
    "grenade": pbe.GRENADE,
    "grenade_launcher": pbe.GRENADE_LAUNCHER,
    "artillery": pbe.ARTILLERY,
    "light_mortar": pbe.LIGHT_MORTAR,
    "sniper": pbe.SNIPER,
}


def area_preview(
    *, battle: SkirmishBattle, kind: str, targets: list[str], mg42: bool = False, **_p
) -> Preview:
    troops = _troops(battle)
    attack = pbe.fire_at_will(mg42) if kind == "fire_at_will" else AREA_ATTACKS.get(kind)
    if attack is None:
        return Preview([(_("Anticipation"), _("no roll"))])
    lines = []
    for t in targets or []:
        troop = _find(troops, t, "targets")
        s = troop.soldier(_sid(t), "targets")
        lines.append(
            _odds_lines(
                f"{s.id} ({s.experience}) vs {attack.name}",
                pbe.fixed_evasion_odds(attack, s.experience),
            )
        )
    if kind == "artillery":
        lines.append(
            _odds_lines(
                _("Radio technician: deviation dice"),
                {k: v for k, v in pbsup.radio_technician_odds().items()},
            )
        )
    return Preview(lines or [(_("Targets"), _("choose the soldiers caught in the area"))])


def projector_preview(
    *, battle: SkirmishBattle, distance_cm: float, moved: bool, targets: list[str]
) -> Preview:
    """Exact odds of a grenade-projector shot and of each caught soldier's 11+ evasion."""
    troops = _troops(battle)
    with engine_errors("distance_cm"):
        needed = pbx.projector_needed(float(distance_cm))
        mod = pbx.PROJECTOR_MOVED_PENALTY if moved else 0
        p_hit = Distribution.of("3d6", modifier=mod).p_at_least(needed)
        attack = pbx.projector_evasion(float(distance_cm))
    lines = [
        (
            _("Hit: 3D6%(m)s needs %(n)s+") % {"m": f" {mod:+d}" if mod else "", "n": needed},
            _pct(p_hit),
        )
    ]
    for t in targets or []:
        troop = _find(troops, t, "targets")
        x = troop.soldier(_sid(t), "targets")
        lines.append(
            _odds_lines(
                f"{x.id} ({x.experience}) vs {attack.name}",
                pbe.fixed_evasion_odds(attack, x.experience),
            )
        )
    return Preview(lines)


def skirmish_grenade(
    *,
    battle: SkirmishBattle,
    actor,
    turn: int,
    thrower: str,
    distance_cm: float,
    moved: bool,
    los_to_marker: bool,
    targets: list[str],
    hit_the_dirt: list[str],
    dice,
    launcher: bool = False,
) -> SkirmishEvent:
    """A hand grenade (§6.4): the marker deviates, everyone in the 6 cm blast is suppressed
    and evades 9+; hitting the dirt costs PO and skips the roll (DECISIONS D-6).
    `launcher`: the US M7 (20-40 cm, the firer sees the marker, always 2D6 deviation;
    the soldiers caught evade 9+ or are eliminated) — only a soldier carrying one."""
    _check_turn(turn)
    with transaction.atomic():
        battle = lock_battle(battle.pk)
        _playing(battle, PARABELLUM)
        _player_side(battle, actor)
        troops = _troops(battle)
        t_troop = _find(troops, thrower, "thrower")
        soldier = t_troop.soldier(_sid(thrower), "thrower")
        if t_troop.down(soldier.id):
            raise ValidationError({"thrower": [_("%(s)s is down.") % {"s": soldier.id}]})
        if launcher and "grenade_launcher" not in soldier.extras:
            raise ValidationError(
                {"thrower": [_("%(s)s carries no M7 grenade launcher.") % {"s": soldier.id}]}
            )
        caught = _area_targets(troops, targets, hit_the_dirt)
        ex = Explanation()
        with engine_errors("distance_cm"):
            if launcher:
                dev = pbx.fire_grenade_launcher(
                    float(distance_cm), dice, los_to_marker=los_to_marker
                )
            else:
                dev = pbx.throw_grenade(
                    float(distance_cm), dice, moved=moved, los_to_marker=los_to_marker
                )
            ex.extend(dev.explanation)
            attack = pbe.GRENADE_LAUNCHER if launcher else pbe.GRENADE
            results = pbe.resolve_fixed_evasions(attack, [t for _tr, t in caught], dice)
        _all_dice_used(dice)
        cause = "grenade_launcher" if launcher else "grenade"
        outcomes = _apply_area(caught, results, ex, turn, cause)
        summary = (
            _("Turn %(t)s: %(s)s fires the M7 launcher (deviation %(d)s cm): %(o)s")
            if launcher
            else _("Turn %(t)s: %(s)s throws a grenade (deviation %(d)s cm): %(o)s")
        )
        return log_event(
            battle,
            kind=SkirmishEvent.Kind.ROLL,
            summary=summary % {"t": turn, "s": soldier.id, "d": dev.distance_cm, "o": outcomes},
            actor=actor,
            rule="10 ESTADOS UNIDOS" if launcher else "6.4",
            data={"explanation": ex.as_list(), "rolls": _rolls(dice)},
        )


def _projector_weapon(troop: Troop, soldier):
    """The soldier's grenade projector (the primary weapon or an extra such as the
    Panzerfaust), or None."""
    code = troop.roster.type.nation
    for key in (soldier.weapon, *soldier.extras):
        try:
            w = weapon(code, key)
        except RuleError:
            continue
        if w.has("grenade_projector"):
            return w
    return None


def skirmish_projector(
    *,
    battle: SkirmishBattle,
    actor,
    turn: int,
    firer: str,
    distance_cm: float,
    moved: bool,
    targets: list[str],
    hit_the_dirt: list[str],
    dice,
) -> SkirmishEvent:
    """A grenade-projector shot (§6.6, 2 PA): 3D6 against 7+/9+/11+ by distance, −2 if the
    firer moved; on a hit the target (first) and every soldier within 3 cm are suppressed and
    evade 11+ or are eliminated; no hitting the dirt at 10 cm or less (DECISIONS D-7).
    A single-use weapon (Panzerfaust) fires once per battle."""
    _check_turn(turn)
    with transaction.atomic():
        battle = lock_battle(battle.pk)
        _playing(battle, PARABELLUM)
        _player_side(battle, actor)
        troops = _troops(battle)
        f_troop = _find(troops, firer, "firer")
        soldier = f_troop.soldier(_sid(firer), "firer")
        if f_troop.down(soldier.id):
            raise ValidationError({"firer": [_("%(s)s is down.") % {"s": soldier.id}]})
        gun = _projector_weapon(f_troop, soldier)
        if gun is None:
            raise ValidationError(
                {"firer": [_("%(s)s carries no grenade projector.") % {"s": soldier.id}]}
            )
        if (
            gun.has("single_use")
            and SkirmishEvent.objects.filter(battle=battle, data__projector=firer).exists()
        ):
            raise ValidationError(
                {
                    "firer": [
                        _("%(s)s has already fired the %(w)s (single use).")
                        % {"s": soldier.id, "w": gun.model}
                    ]
                }
            )
        caught = _area_targets(troops, targets, hit_the_dirt)
        if caught[0][0] is f_troop:
            raise ValidationError({"targets": [_("The first soldier is the enemy target.")]})
        ex = Explanation()
        with engine_errors("distance_cm"):
            shot = pbx.fire_projector(float(distance_cm), dice, moved=moved)
            ex.extend(shot.explanation)
            results = []
            if shot.hit:
                with engine_errors("hit_the_dirt"):
                    results = pbe.resolve_fixed_evasions(
                        pbx.projector_evasion(float(distance_cm)), [t for _tr, t in caught], dice
                    )
        _all_dice_used(dice)
        outcomes = _apply_area(caught, results, ex, turn, "projector") if shot.hit else ""
        return log_event(
            battle,
            kind=SkirmishEvent.Kind.ROLL,
            summary=_("Turn %(t)s: %(s)s fires the %(w)s at %(d)s cm: %(m)s vs %(n)s+ → %(o)s")
            % {
                "t": turn,
                "s": soldier.id,
                "w": gun.model,
                "d": float(distance_cm),
                "m": shot.modified,
                "n": shot.needed,
                "o": outcomes or _("miss"),
            },
            actor=actor,
            rule="6.6",
            data={
                "explanation": ex.as_list(),
                "rolls": _rolls(dice),
                "projector": firer,
                "hit": shot.hit,
                "odds": {"hit": _pct(shot.p_hit)},
            },
        )


def skirmish_bombardment(
    *, battle: SkirmishBattle, actor, targets: list[str], hit_the_dirt: list[str], dice
) -> SkirmishEvent:
    """The free British preliminary bombardment ("STONK", 10 GRAN BRETAÑA): once, before
    turn 1, as 4-PO artillery (radius 15 cm, 3D6 deviation); the soldiers caught evade 9+ or
    are suppressed — it never eliminates (DECISIONS D-17)."""
    with transaction.atomic():
        battle = lock_battle(battle.pk)
        _playing(battle, PARABELLUM)
        side = _player_side(battle, actor)
        troops = _troops(battle)
        if "stonk" not in troops[side.index].roster.type.special_rules:
            raise ValidationError(
                {"__all__": [_("Only British squads have the preliminary bombardment.")]}
            )
        if SkirmishEvent.objects.filter(battle=battle, data__stonk=side.index).exists():
            raise ValidationError(
                {"__all__": [_("The preliminary bombardment was already fired.")]}
            )
        started = (
            battle.turns
            or battle.tactical
            or SkirmishEvent.objects.filter(battle=battle, kind=SkirmishEvent.Kind.ROLL)
            .exclude(data__has_key="stonk")
            .exists()
        )
        if started:
            raise ValidationError(
                {"__all__": [_("The preliminary bombardment comes before turn 1.")]}
            )
        caught = _area_targets(troops, targets, hit_the_dirt)
        if any(troop is troops[side.index] for troop, _t in caught):
            raise ValidationError({"targets": [_("Choose enemy soldiers under the barrage.")]})
        ex = Explanation()
        with engine_errors("targets"):
            bomb = pbsup.stonk(dice)
            ex.extend(bomb.explanation)
            with engine_errors("hit_the_dirt"):
                results = pbe.resolve_fixed_evasions(bomb.attack, [t for _tr, t in caught], dice)
        _all_dice_used(dice)
        outcomes = _apply_area(caught, results, ex, 1, "artillery")
        return log_event(
            battle,
            kind=SkirmishEvent.Kind.ROLL,
            summary=_("Preliminary bombardment (STONK, radius %(r)s cm, deviation %(d)s cm): %(o)s")
            % {"r": bomb.radius_cm, "d": bomb.deviation.distance_cm, "o": outcomes},
            actor=actor,
            rule=pbsup.GBR,
            data={"explanation": ex.as_list(), "rolls": _rolls(dice), "stonk": side.index},
        )


def _apply_area(caught, results, ex: Explanation, turn: int, cause: str) -> str:
    touched = set()
    for (troop, target), res in zip(caught, results, strict=True):
        ex.extend(res.explanation)
        if res.po_spent:
            _spend(troop, res.po_spent, _("Hitting the dirt"))
        if res.outcome == "eliminated":
            _kill(troop, target.name, turn, cause)
        touched.add(troop)
    for troop in touched:
        troop.side.save(update_fields=["casualties", "po"])
    return "; ".join(f"{t.name} {r.outcome}" for (_tr, t), r in zip(caught, results, strict=True))


SUPPORT_KINDS = ("sniper", "artillery", "fire_at_will", "light_mortar", "anticipation")


def skirmish_support(
    *,
    battle: SkirmishBattle,
    actor,
    turn: int,
    kind: str,
    po: int = 0,
    targets: list[str] | None = None,
    hit_the_dirt: list[str] | None = None,
    radio_operator: bool = False,
    dice,
) -> SkirmishEvent:
    """A reinforcement call (§7) checked against this battle's PO ledger, then resolved."""
    _check_turn(turn)
    if kind not in SUPPORT_KINDS:
        raise ValidationError({"kind": [_("Choose a reinforcement.")]})
    targets, dirt = targets or [], hit_the_dirt or []
    with transaction.atomic():
        battle = lock_battle(battle.pk)
        _playing(battle, PARABELLUM)
        side = _player_side(battle, actor)
        troops = _troops(battle)
        own = troops[side.index]
        squad = PBRoster.from_dict(side.snapshot).squad_type
        if kind == "fire_at_will":
            po = len(targets)
        elif kind == "sniper":
            po = pbsup.SNIPER_PO
        elif kind == "light_mortar":
            po = pbsup.LIGHT_MORTAR_PO
        call = pbsup.Call(turn, kind, int(po or 0))
        previous = [pbsup.Call(**c) for c in side.calls]
        ex = Explanation()
        with engine_errors("kind"):
            check = pbsup.check_call(squad, previous, call, side.po)
        ex.extend(check.explanation)
        own.side.po = check.po_left
        own.side.calls = [*side.calls, {"turn": turn, "kind": kind, "po": call.po}]
        caught = _area_targets(troops, targets, dirt) if kind != "anticipation" else []
        cause = kind
        with engine_errors("targets"):
            if kind == "artillery":
                bomb = pbsup.artillery(call.po, dice, radio_operator=radio_operator)
                ex.extend(bomb.explanation)
                results = pbe.resolve_fixed_evasions(bomb.attack, [t for _tr, t in caught], dice)
            elif kind == "light_mortar":
                bomb = pbsup.light_mortar(dice)
                ex.extend(bomb.explanation)
                results = pbe.resolve_fixed_evasions(bomb.attack, [t for _tr, t in caught], dice)
            elif kind == "sniper":
                fire = pbsup.sniper_shot(caught[0][1], [t.name for _tr, t in caught[1:]], dice)
                ex.extend(fire.explanation)
                results = fire.evasions
                caught = caught[:1]
            elif kind == "fire_at_will":
                st = PBRoster.from_dict(side.snapshot).type
                mg42 = "mg42" in (nation(st.nation).special_rules | st.special_rules)
                fire = pbsup.mg_fire_at_will(
                    [t for _tr, t in caught], dice, team_ready=True, mg42=mg42
                )
                ex.extend(fire.explanation)
                results = fire.evasions
            else:
                results = []
        _all_dice_used(dice)
        own.side.save(update_fields=["po", "calls"])
        outcomes = _apply_area(caught, results, ex, turn, cause) if caught else ""
        return log_event(
            battle,
            kind=SkirmishEvent.Kind.ROLL,
            summary=_("Turn %(t)s: %(p)s calls %(k)s for %(po)s PO (%(left)s left)%(o)s")
            % {
                "t": turn,
                "p": actor,
                "k": kind.replace("_", " "),
                "po": call.po,
                "left": check.po_left,
                "o": f": {outcomes}" if outcomes else "",
            },
            actor=actor,
            rule="7",
            data={"explanation": ex.as_list(), "rolls": _rolls(dice)},
        )


def skirmish_tactical(
    *, battle: SkirmishBattle, actor, turn: int, blue: tuple[int, int]
) -> SkirmishEvent:
    """The tactical phase of a turn (§4.1): both players reveal 6 of their tokens (6 blue, 4
    yellow); more blue takes the initiative (a tie: last turn's holder, the attacker on turn
    1); each yellow gives 1 PO, 2 when the opponent showed none. Turns are entered in order,
    once each; the PO are added to each side's ledger."""
    _check_turn(turn)
    with transaction.atomic():
        battle = lock_battle(battle.pk)
        _playing(battle, PARABELLUM)
        _player_side(battle, actor)
        done = list(battle.tactical or [])
        if any(t["turn"] == turn for t in done):
            raise ValidationError(
                {"turn": [_("The tactical phase of turn %(t)s is already recorded.") % {"t": turn}]}
            )
        if turn != len(done) + 1:
            raise ValidationError(
                {
                    "turn": [
                        _("Record the tactical phase of turn %(t)s first.") % {"t": len(done) + 1}
                    ]
                }
            )
        sides = _sides(battle)
        attacker = next(s.index for s in sides if s.role == "attacker")
        previous = done[-1]["initiative"] if done else None
        try:
            blue = (int(blue[0]), int(blue[1]))
        except (TypeError, ValueError, IndexError):
            raise ValidationError({"blue_0": [_("Blue tokens shown by each player.")]}) from None
        with engine_errors("blue_0"):
            result = tactical_phase(blue, turn=turn, attacker=attacker, previous_holder=previous)
        for s in sides:
            s.po += result.po_gained[s.index]
            s.save(update_fields=["po"])
        battle.tactical = [
            *done,
            {
                "turn": turn,
                "blue": list(blue),
                "initiative": result.initiative,
                "po_gained": list(result.po_gained),
            },
        ]
        battle.save(update_fields=["tactical"])
        holder = sides[result.initiative].player
        return log_event(
            battle,
            kind=SkirmishEvent.Kind.RULE,
            summary=_(
                "Turn %(t)s tactical phase: blue %(a)s / %(b)s → initiative %(p)s; PO +%(x)s / +%(y)s"
            )
            % {
                "t": turn,
                "a": blue[0],
                "b": blue[1],
                "p": holder,
                "x": result.po_gained[0],
                "y": result.po_gained[1],
            },
            actor=actor,
            rule="4.1",
            data={"explanation": result.explanation.as_list()},
        )


def skirmish_casualty(
    *,
    battle: SkirmishBattle,
    actor,
    soldier: str,
    turn: int,
    cause: str = "other",
    healed_turn: int | None = None,
    remove: bool = False,
) -> SkirmishEvent:
    """Record a casualty by hand, mark a medic's heal, or remove a wrong entry (logged)."""
    _check_turn(turn)
    with transaction.atomic():
        battle = lock_battle(battle.pk)
        _playing(battle, PARABELLUM)
        _player_side(battle, actor)
        troops = _troops(battle)
        troop = _find(troops, soldier, "soldier")
        sid = _sid(soldier)
        listed = [c for c in troop.side.casualties if c["soldier_id"] == sid]
        if remove:
            if not listed:
                raise ValidationError({"soldier": [_("%(s)s is not a casualty.") % {"s": sid}]})
            troop.side.casualties = [c for c in troop.side.casualties if c["soldier_id"] != sid]
            summary = _("Correction: %(s)s is not a casualty") % {"s": sid}
            kind = SkirmishEvent.Kind.CORRECTION
        elif healed_turn is not None:
            if not listed or healed_turn < listed[0]["turn"] or healed_turn > TURNS:
                raise ValidationError({"healed_turn": [_("Heal a casualty on or after its turn.")]})
            troop.side.casualties = [
                {**c, "healed_turn": healed_turn} if c["soldier_id"] == sid else c
                for c in troop.side.casualties
            ]
            summary = _("%(s)s healed by the medic on turn %(t)s") % {"s": sid, "t": healed_turn}
            kind = SkirmishEvent.Kind.EVENT
        else:
            if listed:
                raise ValidationError({"soldier": [_("%(s)s is already a casualty.") % {"s": sid}]})
            if cause not in CAUSES:
                raise ValidationError({"cause": [_("Choose a cause.")]})
            _kill(troop, sid, turn, cause)
            summary = _("Turn %(t)s: %(s)s eliminated (%(c)s)") % {"t": turn, "s": sid, "c": cause}
            kind = SkirmishEvent.Kind.EVENT
        troop.side.save(update_fields=["casualties"])
        return log_event(battle, kind=kind, summary=summary, actor=actor, rule="9")


CAUSES = (
    "shot",
    "reaction_shot",
    "assault",
    "grenade",
    "grenade_launcher",
    "projector",
    "artillery",
    "light_mortar",
    "sniper",
    "fire_at_will",
    "other",
)


def skirmish_turn_record(
    *, battle: SkirmishBattle, actor, turn: int, po: list[int], models: dict[str, list[str]]
) -> SkirmishEvent:
    """Positions at the end of a turn, as §9 scores them: `models` maps "side:soldier" to the
    flags that hold (e.g. `wholly_in_enemy_half`); PO held by each side. Re-recording a turn
    replaces it (logged as a correction)."""
    _check_turn(turn)
    with transaction.atomic():
        battle = lock_battle(battle.pk)
        _playing(battle, PARABELLUM)
        _player_side(battle, actor)
        troops = _troops(battle)
        if len(po) != 2 or any(not isinstance(p, int) or p < 0 for p in po):
            raise ValidationError({"po": [_("PO held by each side, 0 or more.")]})
        sides: list[dict] = [{"po": po[0], "models": []}, {"po": po[1], "models": []}]
        for key, flags in models.items():
            troop = _find(troops, key, "models")
            bad = [f for f in flags if f not in MODEL_FLAGS]
            if bad:
                raise ValidationError({"models": [_("Unknown position %(f)s.") % {"f": bad[0]}]})
            sides[troop.side.index]["models"].append(
                {"soldier_id": _sid(key), **{f: True for f in flags}}
            )
        turns = [t for t in battle.turns if t["turn"] != turn]
        replaced = len(turns) != len(battle.turns)
        turns.append({"turn": turn, "sides": sides})
        battle.turns = sorted(turns, key=lambda t: t["turn"])
        battle.save(update_fields=["turns"])
        return log_event(
            battle,
            kind=SkirmishEvent.Kind.CORRECTION if replaced else SkirmishEvent.Kind.EVENT,
            summary=_("End of turn %(t)s recorded (PO %(a)s / %(b)s)")
            % {"t": turn, "a": po[0], "b": po[1]},
            actor=actor,
            rule="9",
            data={"turn": turn, "sides": sides},
        )


def engine_battle(battle: SkirmishBattle, sides: list[SkirmishSide]) -> Battle:
    orders = {o.side_id: o for o in SealedOrders.objects.filter(side__battle=battle)}
    bsides = []
    for s in sides:
        o = orders.get(s.pk)
        bsides.append(
            BattleSide(
                player=str(s.player),
                roster=PBRoster.from_dict(s.snapshot),
                role=s.role,
                start_po=s.start_po,
                priority_order=o.priority_order if o else None,
                directives=tuple(o.directives) if o else (),
                casualties=tuple(Casualty(**c) for c in s.casualties),
                calls=tuple(pbsup.Call(**c) for c in s.calls),
            )
        )
    turns = tuple(
        TurnState(
            turn=t["turn"],
            sides=tuple(
                SideState(po=x["po"], models=tuple(ModelState(**m) for m in x["models"]))
                for x in t["sides"]
            ),
        )
        for t in battle.turns
    )
    return Battle(mode=battle.mode, sides=tuple(bsides), turns=turns)


def skirmish_finish(*, battle: SkirmishBattle, actor) -> SkirmishBattle:
    """End a Parabellum battle: reveal every side's sealed orders together, score VP (§9)
    and name the winner (a draw on equal VP). Finishing twice changes nothing."""
    with transaction.atomic():
        battle = lock_battle(battle.pk)
        if battle.status == SkirmishBattle.Status.FINISHED:
            raise ValidationError({"__all__": [_("The battle is already over.")]})
        _playing(battle, PARABELLUM)
        _player_side(battle, actor)
        sides = _sides(battle)
        if not battle.turns:
            raise ValidationError(
                {"__all__": [_("Record the positions at the end of the last turn first.")]}
            )
        record = engine_battle(battle, sides)
        problems = validate_battle(record)
        if battle.mode == SkirmishBattle.Mode.ORDERS and any(
            not SealedOrders.objects.filter(side=s).exists() for s in sides
        ):
            raise ValidationError({"__all__": [_("Both players must seal their orders first.")]})
        if problems:
            raise ValidationError({"__all__": [v.text for v in problems]})
        with engine_errors():
            score = score_battle(record)
        now = timezone.now()
        battle.status = SkirmishBattle.Status.FINISHED
        battle.finished_at = battle.revealed_at = now
        battle.score = jsonable(score.to_dict())
        battle.winner_index = score.winner
        battle.save(update_fields=["status", "finished_at", "revealed_at", "score", "winner_index"])
        SealedOrders.objects.filter(side__battle=battle).update(revealed_at=now)
        if battle.mode == SkirmishBattle.Mode.ORDERS:
            parts = [
                f"{s.player}: {PRIORITY_NAMES[o.priority_order]}; "
                + ", ".join(DIRECTIVE_NAMES[d] for d in o.directives)
                for s, o in ((s, record.sides[s.index]) for s in sides)
            ]
            log_event(
                battle,
                kind=SkirmishEvent.Kind.RESULT,
                summary=_("Sealed orders revealed together — %(p)s") % {"p": " | ".join(parts)},
                actor=actor,
                rule="9.2",
            )
        totals = " – ".join(f"{s['player']} {s['total']} VP" for s in battle.score["sides"])
        winner = sides[score.winner].player if score.winner is not None else None
        log_event(
            battle,
            kind=SkirmishEvent.Kind.RESULT,
            summary=_("Battle over: %(t)s. %(w)s")
            % {"t": totals, "w": _("%(p)s wins.") % {"p": winner} if winner else _("A draw.")},
            actor=actor,
            rule="9",
            data={"explanation": score.explanation.as_list()},
        )
        _battle_history(battle, sides, actor)
    return battle


def _battle_history(battle: SkirmishBattle, sides: list[SkirmishSide], actor) -> None:
    for s in sides:
        if s.roster_id is None:
            continue
        roster = lock_roster(s.roster_id)
        if battle.system == PARABELLUM:
            lost = [c["soldier_id"] for c in s.casualties if c.get("healed_turn") is None]
            what = _("lost %(l)s") % {"l": ", ".join(lost) or _("nobody")}
        else:
            what = ""
        result = (
            _("won")
            if battle.winner_index == s.index
            else _("drew")
            if battle.winner_index is None
            else _("lost")
        )
        record_change(
            roster,
            kind=RosterChange.Kind.BATTLE,
            summary=_("Fought %(b)s as %(r)s: %(res)s%(what)s")
            % {"b": battle, "r": s.role, "res": result, "what": f"; {what}" if what else ""},
            actor=actor,
            battle=battle,
        )


def skirmish_apply_house_rules(*, battle: SkirmishBattle, actor, dice: DiceSource) -> RosterChange:
    """Apply the roster's campaign house rules after a finished Parabellum battle (HR-1…HR-4,
    off by default: with all off the roster is unchanged). Once per side."""
    with transaction.atomic():
        battle = lock_battle(battle.pk)
        if battle.status != SkirmishBattle.Status.FINISHED or battle.system != PARABELLUM:
            raise ValidationError({"__all__": [_("Apply house rules after the battle is over.")]})
        side = _player_side(battle, actor)
        if side.applied_at is not None:
            raise ValidationError(
                {"__all__": [_("The house rules were already applied to your roster.")]}
            )
        if side.roster_id is None:
            raise ValidationError({"__all__": [_("Your roster no longer exists.")]})
        roster = lock_roster(side.roster_id)
        sides = _sides(battle)
        record = engine_battle(battle, sides)
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
        _all_dice_used(dice)
        before = state_of(roster)
        roster.data = post.roster.to_dict()
        roster.save(update_fields=["data", "updated_at"])
        side.applied_at = timezone.now()
        side.save(update_fields=["applied_at"])
        texts = [c.text for c in post.changes]
        change = record_change(
            roster,
            kind=RosterChange.Kind.POST_BATTLE,
            summary=(_("House rules after %(b)s: %(t)s") % {"b": battle, "t": "; ".join(texts)})
            if texts
            else _("No house rule switched on: the roster is unchanged after %(b)s")
            % {"b": battle},
            rule="HR",
            actor=actor,
            before=before,
            after=state_of(roster),
            explanation=post.explanation.as_list(),
            battle=battle,
        )
        log_event(
            battle,
            kind=SkirmishEvent.Kind.RULE,
            summary=_("House rules applied to “%(n)s”: %(t)s")
            % {"n": roster.name, "t": "; ".join(texts) or _("no change")},
            actor=actor,
            rule="HR",
            data={"explanation": post.explanation.as_list(), "rolls": _rolls(dice)},
        )
    return change


# --- corrections of a finished result -------------------------------------------------------


def _result_text(sides: list[SkirmishSide], winner_index: int | None) -> str:
    if winner_index is None:
        return _("a draw")
    return _("%(p)s wins") % {"p": sides[winner_index].player}


def skirmish_result_correct(
    *, battle: SkirmishBattle, actor, winner_index: int | None, reason: str
) -> SkirmishCorrection:
    """Correct a finished battle's result. An organiser (a neutral game master of the
    battle's campaign, or staff) applies it at once. A player proposes it (replacing their
    own earlier proposal); when the other player has proposed the same result, this is their
    agreement and it is applied. Both results stay in the log with the reason."""
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": [_("Say why the result changes.")]})
    if winner_index not in (None, 0, 1):
        raise ValidationError({"winner": [_("Choose the winner or a draw.")]})
    with transaction.atomic():
        battle = lock_battle(battle.pk)
        if battle.status != SkirmishBattle.Status.FINISHED:
            raise ValidationError({"__all__": [_("Only a finished battle's result is corrected.")]})
        sides = _sides(battle)
        mine = next((s for s in sides if s.player_id == getattr(actor, "pk", None)), None)
        organiser = mine is None and is_organiser(actor, battle)
        if mine is None and not organiser:
            raise ValidationError(
                {"__all__": [_("Only the battle's players or an organiser correct its result.")]}
            )
        if winner_index == battle.winner_index:
            raise ValidationError({"winner": [_("That is already the result.")]})
        pending = list(
            SkirmishCorrection.objects.filter(
                battle=battle, status=SkirmishCorrection.Status.PROPOSED
            )
        )
        theirs = next(
            (c for c in pending if c.proposed_by_id != actor.pk and c.winner_index == winner_index),
            None,
        )
        if organiser or theirs is not None:
            for c in pending:
                if c is not theirs:
                    c.status = SkirmishCorrection.Status.WITHDRAWN
                    c.decided_at = timezone.now()
                    c.save(update_fields=["status", "decided_at"])
            corr = theirs or SkirmishCorrection(
                battle=battle,
                previous_winner_index=battle.winner_index,
                winner_index=winner_index,
                reason=reason[:300],
                proposed_by=actor,
            )
            corr.agreed_by = actor
            _apply_correction(battle, sides, corr, actor)
            return corr
        for c in pending:
            if c.proposed_by_id == actor.pk:
                c.status = SkirmishCorrection.Status.WITHDRAWN
                c.decided_at = timezone.now()
                c.save(update_fields=["status", "decided_at"])
        corr = SkirmishCorrection.objects.create(
            battle=battle,
            previous_winner_index=battle.winner_index,
            winner_index=winner_index,
            reason=reason[:300],
            proposed_by=actor,
        )
        log_event(
            battle,
            kind=SkirmishEvent.Kind.CORRECTION,
            summary=_(
                "%(p)s proposes correcting the result from “%(a)s” to “%(b)s” (%(r)s); "
                "it applies when the other player agrees."
            )
            % {
                "p": actor,
                "a": _result_text(sides, battle.winner_index),
                "b": _result_text(sides, winner_index),
                "r": corr.reason,
            },
            actor=actor,
            data={"proposal": corr.pk},
        )
        return corr


def skirmish_result_agree(*, battle: SkirmishBattle, actor, correction_id: int):
    """The other player agrees with a pending proposal: it is applied."""
    with transaction.atomic():
        battle = lock_battle(battle.pk)
        corr = SkirmishCorrection.objects.filter(
            pk=correction_id, battle=battle, status=SkirmishCorrection.Status.PROPOSED
        ).first()
        if corr is None:
            raise ValidationError(
                {"__all__": [_("That proposal is no longer pending: reload the page.")]}
            )
        if corr.proposed_by_id == actor.pk:
            raise ValidationError(
                {"__all__": [_("The other player (or an organiser) must agree to your proposal.")]}
            )
        return skirmish_result_correct(
            battle=battle, actor=actor, winner_index=corr.winner_index, reason=corr.reason
        )


def _post_battle_changes(battle: SkirmishBattle, side: SkirmishSide) -> list[RosterChange]:
    """House-rule changes this battle made to the side's roster that were not undone yet."""
    if side.roster_id is None or side.applied_at is None:
        return []
    changes = list(
        RosterChange.objects.filter(
            roster_id=side.roster_id, battle=battle, kind=RosterChange.Kind.POST_BATTLE
        ).order_by("-seq")
    )
    undone = set(
        RosterChange.objects.filter(reverts__in=changes).values_list("reverts_id", flat=True)
    )
    return [c for c in changes if c.pk not in undone]


def _apply_correction(battle, sides, corr: SkirmishCorrection, actor) -> None:
    """Undo the house-rule changes already applied (through the roster history's undo), or
    refuse with the reason; then the new result, a log entry keeping both, and a history
    note on each roster. The caller holds the battle lock."""
    plan: list[tuple[SkirmishSide, Roster, list[RosterChange]]] = []
    problems: list[str] = []
    for s in sides:
        changes = _post_battle_changes(battle, s)
        if not changes:
            continue
        roster = lock_roster(s.roster_id)
        if roster.archived_at is not None:
            problems.append(
                _("“%(r)s” is archived: restore it so its house-rule changes can be undone.")
                % {"r": roster.name}
            )
            continue
        newest = changes[0]
        if state_of(roster) != {**state_of(roster), **newest.after}:
            later = (
                RosterChange.objects.filter(roster=roster, seq__gt=newest.seq)
                .order_by("seq")
                .first()
            )
            problems.append(
                _(
                    "“%(r)s” changed after the house rules were applied (#%(n)s %(s)s): undoing "
                    "them would lose that change. Undo it in the roster's history first, or "
                    "correct the roster by hand."
                )
                % {
                    "r": roster.name,
                    "n": later.seq if later else "?",
                    "s": later.summary if later else "",
                }
            )
            continue
        plan.append((s, roster, changes))
    if problems:
        raise ValidationError({"__all__": problems})
    before, after = battle.winner_index, corr.winner_index
    why = _("the result of %(b)s was corrected") % {"b": battle}
    undone = []
    for s, roster, changes in plan:
        for change in changes:  # newest first
            undo_change(roster, change, actor=actor, why=why)
            undone.append({"roster": roster.name, "change": change.seq})
        s.applied_at = None
        s.save(update_fields=["applied_at"])
    for s in sides:
        if s.roster_id is None:
            continue
        roster = lock_roster(s.roster_id)
        record_change(
            roster,
            kind=RosterChange.Kind.CORRECTION,
            summary=_("Result of %(b)s corrected: now %(res)s (%(r)s)")
            % {
                "b": battle,
                "res": _("won") if after == s.index else _("drew") if after is None else _("lost"),
                "r": corr.reason,
            },
            actor=actor,
            battle=battle,
        )
    battle.winner_index = after
    if battle.score:
        battle.score = {**battle.score, "winner": after}
    battle.save(update_fields=["winner_index", "score"])
    corr.status = SkirmishCorrection.Status.APPLIED
    corr.decided_at = timezone.now()
    corr.save()
    agreed = (
        _("applied by the organiser %(u)s") % {"u": actor}
        if corr.proposed_by_id == actor.pk
        else _("proposed by %(p)s, agreed by %(u)s") % {"p": corr.proposed_by, "u": actor}
    )
    log_event(
        battle,
        kind=SkirmishEvent.Kind.CORRECTION,
        summary=_("Result corrected: was “%(a)s”, now “%(b)s” — %(r)s (%(w)s)%(u)s")
        % {
            "a": _result_text(sides, before),
            "b": _result_text(sides, after),
            "r": corr.reason,
            "w": agreed,
            "u": _("; house-rule changes undone, apply them again") if undone else "",
        },
        actor=actor,
        data={
            "before": {"winner_index": before},
            "after": {"winner_index": after},
            "reason": corr.reason,
            "undone": undone,
        },
    )


# --- 1936 ------------------------------------------------------------------------------------


def _m36(battle: SkirmishBattle, actor) -> SkirmishSide:
    _playing(battle, M1936)
    return _player_side(battle, actor)


def _sheet(battle: SkirmishBattle) -> m36s.ScenarioSheet:
    if not battle.scenario:
        raise ValidationError({"__all__": [_("Create the scenario first.")]})
    return m36s.ScenarioSheet.from_dict(battle.scenario)


def _save_sheet(battle, sheet, actor, summary, dice=None, rule=m36s.PLACEMENT_RULE) -> None:
    battle.scenario = jsonable(sheet.to_dict())
    battle.save(update_fields=["scenario"])
    log_event(
        battle,
        kind=SkirmishEvent.Kind.SETUP,
        summary=summary,
        actor=actor,
        rule=rule,
        data={"rolls": _rolls(dice)} if dice else {},
    )


def m36_scenario_create(
    *, battle: SkirmishBattle, actor, terrain: str, user_table: list | None, dice
) -> SkirmishBattle:
    """Terrain and the 1d6 per sector type (I.4); Costa/Ciudad need a validated user table."""
    with transaction.atomic():
        battle = lock_battle(battle.pk)
        _m36(battle, actor)
        if battle.scenario:
            raise ValidationError({"terrain": [_("The scenario is already created.")]})
        if terrain not in m36s.Terrain.__members__.values():
            raise ValidationError({"terrain": [_("Choose a terrain.")]})
        with engine_errors("user_table"):
            sheet = m36s.create_scenario(m36s.Terrain(terrain), dice, user_table=user_table)
        _all_dice_used(dice)
        rolls = ", ".join(f"{k} {v}" for k, v in sheet.rolls.items())
        _save_sheet(
            battle, sheet, actor, _("Scenario on %(t)s: %(r)s") % {"t": terrain, "r": rolls}, dice
        )
    return battle


def m36_scenario_tie(*, battle: SkirmishBattle, actor, order: list[str]) -> SkirmishBattle:
    with transaction.atomic():
        battle = lock_battle(battle.pk)
        _m36(battle, actor)
        with engine_errors("order"):
            sheet = m36s.order_tied_sectors(_sheet(battle), order)
        _save_sheet(battle, sheet, actor, _("Tie ordered: %(o)s") % {"o": " < ".join(order)})
    return battle


def m36_scenario_plan(
    *, battle: SkirmishBattle, actor, sector: int, counts: dict[str, int], last_piece: str | None
) -> SkirmishBattle:
    with transaction.atomic():
        battle = lock_battle(battle.pk)
        side = _m36(battle, actor)
        if m36s.placer(sector).value != {"attacker": "Atacante", "defender": "Defensor"}[side.role]:
            raise ValidationError({"sector": [_("The other player fills that sector.")]})
        with engine_errors("counts"):
            sheet = m36s.plan_sector(_sheet(battle), sector, counts, last_piece=last_piece or None)
        shown = ", ".join(f"{k} {v}" for k, v in sheet.plans[sector].counts.items() if v)
        _save_sheet(
            battle, sheet, actor, _("Sector %(s)s planned: %(c)s") % {"s": sector, "c": shown}
        )
    return battle


def m36_objectives(*, battle: SkirmishBattle, actor) -> SkirmishBattle:
    with transaction.atomic():
        battle = lock_battle(battle.pk)
        side = _m36(battle, actor)
        if side.role != "defender":
            raise ValidationError({"__all__": [_("The defender places the objectives.")]})
        with engine_errors():
            sheet = m36s.place_objectives(_sheet(battle))
        _save_sheet(battle, sheet, actor, _("Objectives placed in sectors 2, 3 and 4"))
    return battle


def m36_weather(*, battle: SkirmishBattle, actor, season: str, dice) -> SkirmishBattle:
    """Weather on the season table after creating the scenario (XV.1)."""
    with transaction.atomic():
        battle = lock_battle(battle.pk)
        _m36(battle, actor)
        if battle.weather:
            raise ValidationError(
                {"season": [_("The weather is already rolled; check for a change every 10 turns.")]}
            )
        if season not in m36w.Season.__members__.values():
            raise ValidationError({"season": [_("Choose a season.")]})
        with engine_errors("season"):
            result = m36w.determine_weather(m36w.Season(season), dice)
        _all_dice_used(dice)
        battle.weather = jsonable({"season": season, "current": result.to_dict(), "changes": []})
        battle.save(update_fields=["weather"])
        log_event(
            battle,
            kind=SkirmishEvent.Kind.ROLL,
            summary=_("Weather (%(s)s): 2d6 = %(r)s → %(w)s")
            % {"s": season, "r": result.roll, "w": result.weather},
            actor=actor,
            rule=m36w.DETERMINE_RULE,
            data={"explanation": result.explanation.as_list(), "rolls": _rolls(dice)},
        )
    return battle


def m36_weather_change(*, battle: SkirmishBattle, actor, turn: int, dice) -> SkirmishBattle:
    """Every 10 turns, 2d6: 10+ re-rolls the weather (XV.4)."""
    with transaction.atomic():
        battle = lock_battle(battle.pk)
        _m36(battle, actor)
        if not battle.weather:
            raise ValidationError({"turn": [_("Roll the weather first.")]})
        if any(c["turn"] == turn for c in battle.weather["changes"]):
            raise ValidationError({"turn": [_("The change roll for that turn is already made.")]})
        current = battle.weather["current"]["weather"]
        with engine_errors("turn"):
            change = m36w.check_weather_change(
                turn, m36w.Season(battle.weather["season"]), m36w.Weather(current), dice
            )
        _all_dice_used(dice)
        weather = dict(battle.weather)
        weather["changes"] = [
            *weather["changes"],
            {
                "turn": turn,
                "roll": change.roll,
                "changed": change.changed,
                "weather": str(change.weather),
            },
        ]
        if change.new_roll is not None:
            weather["current"] = jsonable(change.new_roll.to_dict())
        battle.weather = weather
        battle.save(update_fields=["weather"])
        log_event(
            battle,
            kind=SkirmishEvent.Kind.ROLL,
            summary=_("Turn %(t)s weather check: 2d6 = %(r)s → %(w)s")
            % {
                "t": turn,
                "r": change.roll,
                "w": change.weather if change.changed else _("no change"),
            },
            actor=actor,
            rule=m36w.CHANGE_RULE,
            data={"explanation": change.explanation.as_list(), "rolls": _rolls(dice)},
        )
    return battle


def _defender(battle: SkirmishBattle) -> SkirmishSide:
    return SkirmishSide.objects.get(battle=battle, role="defender")


def m36_construction_start(*, battle: SkirmishBattle, actor, waiting_days: int) -> SkirmishBattle:
    """The defender's construction points from its units' shovels and tools and the days of
    waiting (VIII.5)."""
    with transaction.atomic():
        battle = lock_battle(battle.pk)
        side = _m36(battle, actor)
        if side.role != "defender":
            raise ValidationError({"__all__": [_("Construction points belong to the defender.")]})
        if battle.construction:
            raise ValidationError({"waiting_days": [_("The pool is already counted.")]})
        army = m36_army_list(side.snapshot)
        units = {
            f"{i + 1}. {e.label or e.profile}": [
                f"{k}({v})" if v is not None else k
                for k, v in effective_rules(e, army.faction, army.quality).items()
            ]
            for i, e in enumerate(army.entries)
        }
        with engine_errors("waiting_days"):
            pool = m36c.construction_pool(units, waiting_days)
        battle.construction = jsonable(pool.to_dict())
        battle.save(update_fields=["construction"])
        log_event(
            battle,
            kind=SkirmishEvent.Kind.SETUP,
            summary=_("Construction points: %(n)s") % {"n": pool.balance},
            actor=actor,
            rule=m36c.RULE,
            data={"explanation": pool.explanation.as_list()},
        )
    return battle


def m36_fortification_buy(
    *, battle: SkirmishBattle, actor, kind: str, count: int
) -> SkirmishBattle:
    with transaction.atomic():
        battle = lock_battle(battle.pk)
        side = _m36(battle, actor)
        if side.role != "defender":
            raise ValidationError({"__all__": [_("Construction points belong to the defender.")]})
        if not battle.construction:
            raise ValidationError({"kind": [_("Count the construction points first.")]})
        pool = m36c.ConstructionPool.from_dict(battle.construction)
        with engine_errors("kind"):
            pool = m36c.buy_fortification(pool, kind, count)
        battle.construction = jsonable(pool.to_dict())
        battle.save(update_fields=["construction"])
        log_event(
            battle,
            kind=SkirmishEvent.Kind.SETUP,
            summary=_("Bought %(c)s × %(k)s: %(n)s points left")
            % {"c": count, "k": kind, "n": pool.balance},
            actor=actor,
            rule="M36-VIII.5.4",
        )
    return battle


def m36_battalion_morale(*, battle: SkirmishBattle, actor, states: list[str]) -> SkirmishEvent:
    """Check the actor's battalion morale from its units' states (XI.7)."""
    with transaction.atomic():
        battle = lock_battle(battle.pk)
        side = _m36(battle, actor)
        army = m36_army_list(side.snapshot)
        if len(states) != len(army.entries):
            raise ValidationError({"states": [_("Give the state of every unit.")]})
        with engine_errors("states"):
            result = m36m.battalion_morale([m36m.UnitState(s) for s in states])
        return log_event(
            battle,
            kind=SkirmishEvent.Kind.RULE,
            summary=_("%(p)s battalion morale: %(d)s destroyed, %(pa)s panicked of %(t)s → %(b)s")
            % {
                "p": actor,
                "d": result.destroyed,
                "pa": result.panicked,
                "t": result.total,
                "b": _("the side breaks and retreats") if result.broken else _("holds"),
            },
            actor=actor,
            rule=m36m.BATTALION_RULE,
            data={"explanation": result.explanation.as_list(), "broken": result.broken},
        )


def m36_performance(*, battle: SkirmishBattle, actor, value: int, purpose: str) -> SkirmishEvent:
    """The performance roll R, entered by the player (the engine never rolls it)."""
    purpose = (purpose or "").strip()
    if not purpose:
        raise ValidationError({"purpose": [_("Say what the roll is for.")]})
    with transaction.atomic():
        battle = lock_battle(battle.pk)
        _m36(battle, actor)
        ex = Explanation()
        with engine_errors("value"):
            r = performance_result(value, purpose=purpose, rule="M36-V", explanation=ex)
        return log_event(
            battle,
            kind=SkirmishEvent.Kind.ROLL,
            summary=_("Performance roll for %(p)s: R = %(r)s (entered)") % {"p": purpose, "r": r},
            actor=actor,
            rule="M36-V",
            data={"explanation": ex.as_list()},
        )


def m36_finish(*, battle: SkirmishBattle, actor, winner_index: int | None) -> SkirmishBattle:
    with transaction.atomic():
        battle = lock_battle(battle.pk)
        _m36(battle, actor)
        if winner_index not in (None, 0, 1):
            raise ValidationError({"winner": [_("Choose the winner or a draw.")]})
        sides = _sides(battle)
        battle.status = SkirmishBattle.Status.FINISHED
        battle.finished_at = battle.revealed_at = timezone.now()
        battle.winner_index = winner_index
        battle.save(update_fields=["status", "finished_at", "revealed_at", "winner_index"])
        log_event(
            battle,
            kind=SkirmishEvent.Kind.RESULT,
            summary=_("Battle over: %(w)s")
            % {
                "w": _("%(p)s wins.") % {"p": sides[winner_index].player}
                if winner_index is not None
                else _("a draw.")
            },
            actor=actor,
        )
        _battle_history(battle, sides, actor)
    return battle


def m36_post_battle(
    *, battle: SkirmishBattle, actor, conditions: dict[int, dict[str, Any]]
) -> RosterChange:
    """Each unit's condition at the end, carried over under the roster's house rules
    (all off by default: every unit starts the next battle as bought)."""
    with transaction.atomic():
        battle = lock_battle(battle.pk)
        if battle.status != SkirmishBattle.Status.FINISHED or battle.system != M1936:
            raise ValidationError(
                {"__all__": [_("Enter unit conditions after the battle is over.")]}
            )
        side = _player_side(battle, actor)
        if side.applied_at is not None:
            raise ValidationError(
                {"__all__": [_("The conditions were already applied to your list.")]}
            )
        if side.roster_id is None:
            raise ValidationError({"__all__": [_("Your roster no longer exists.")]})
        roster = lock_roster(side.roster_id)
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
        roster.save(update_fields=["condition", "updated_at"])
        side.applied_at = timezone.now()
        side.save(update_fields=["applied_at"])
        return record_change(
            roster,
            kind=RosterChange.Kind.POST_BATTLE,
            summary=_("Carry-over after %(b)s: %(n)s unit(s) start the next battle marked")
            % {"b": battle, "n": len(kept)},
            rule="HOUSE-M36-carry-over",
            actor=actor,
            before=before,
            after=state_of(roster),
            explanation=ex.as_list(),
            battle=battle,
        )


def m36_bog_check(
    *, battle: SkirmishBattle, actor, unit: int, ground: str, value: int | None
) -> SkirmishEvent:
    """A unit of the actor's army moves over `ground`: whether a bog check is due under the
    current weather (IV.7, XV.2), and when it is, the entered performance result R decides
    (bogged on −2 or less)."""
    with transaction.atomic():
        battle = lock_battle(battle.pk)
        side = _m36(battle, actor)
        if not battle.weather:
            raise ValidationError(
                {"ground": [_("Roll the weather first: it decides where vehicles may bog down.")]}
            )
        army = m36_army_list(side.snapshot)
        if not isinstance(unit, int) or not 0 <= unit < len(army.entries):
            raise ValidationError({"unit": [_("Choose one of your units.")]})
        if ground not in m36b.Ground.__members__.values():
            raise ValidationError({"ground": [_("Choose the ground.")]})
        entry = army.entries[unit]
        weather = m36w.Weather(battle.weather["current"]["weather"])
        with engine_errors("unit"):
            profile = catalogue().profile(army.faction, entry.profile)
            risk = m36b.bog_risk(profile, m36b.Ground(ground), weather)
        ex = Explanation()
        ex.extend(risk.explanation)
        name = f"{unit + 1}. {entry.label or entry.profile}"
        if not risk.at_risk:
            if value is not None:
                raise ValidationError({"value": [_("No bog check is due here: leave R empty.")]})
            summary = _("%(u)s moves over %(g)s (%(w)s): no bog check") % {
                "u": name,
                "g": ground,
                "w": weather,
            }
            bogged = False
        else:
            if value is None:
                why = "; ".join(st.text for st in risk.explanation if st.value is True)
                raise ValidationError(
                    {"value": [_("A bog check is due (%(why)s): enter R.") % {"why": why}]}
                )
            with engine_errors("value"):
                check = m36b.bog_check(value)
            ex.extend(check.explanation)
            bogged = check.bogged
            summary = _("%(u)s moves over %(g)s (%(w)s): bog check R = %(r)s → %(o)s") % {
                "u": name,
                "g": ground,
                "w": weather,
                "r": check.result,
                "o": _("bogged down") if bogged else _("keeps moving"),
            }
        return log_event(
            battle,
            kind=SkirmishEvent.Kind.ROLL if risk.at_risk else SkirmishEvent.Kind.RULE,
            summary=summary,
            actor=actor,
            rule=m36b.RULE,
            data={"explanation": ex.as_list(), "bogged": bogged, "weather": str(weather)},
        )
