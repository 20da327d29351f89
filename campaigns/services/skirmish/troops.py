"""Parabellum helpers shared by the procedures: the soldiers of each side, casualties, PO
spent, the soldiers caught in an area, and odds previews."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from campaigns.i18n import say
from campaigns.models import SkirmishBattle, SkirmishSide
from campaigns.services.skirmish.common import battle_sides, pct
from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import Msg, msg
from rules.parabellum import evasion as pbe
from rules.parabellum import labels as pbl
from rules.parabellum.battle import TURNS
from rules.parabellum.roster import Roster as PBRoster


@dataclass(eq=False)
class Troop:
    side: SkirmishSide
    roster: PBRoster

    def soldier(self, soldier_id: str, field: str):
        try:
            s = self.roster.soldier(soldier_id)
        except RuleError:
            raise ValidationError(
                {
                    field: [
                        _("No soldier %(s)s on that side.")
                        % {"s": say(pbl.soldier_name(soldier_id))}
                    ]
                }
            ) from None
        if s.status != "active":
            raise ValidationError(
                {field: [_("%(s)s is not in this battle.") % {"s": say(self.named(soldier_id))}]}
            )
        return s

    def named(self, soldier_id: str) -> Msg:
        """Whose soldier it is, for the log: "demo's MG gunner"."""
        return msg(
            "%(player)s's %(soldier)s",
            player=str(self.side.player),
            soldier=pbl.soldier_name(soldier_id),
        )

    def down(self, soldier_id: str) -> bool:
        return any(
            c["soldier_id"] == soldier_id and c.get("healed_turn") is None
            for c in self.side.casualties
        )

    def target(self, soldier_id: str, field: str, hit_the_dirt: bool) -> pbe.Target:
        s = self.soldier(soldier_id, field)
        return pbe.Target(soldier_id, s.experience, s.role == "officer", hit_the_dirt)


def troops_of(battle: SkirmishBattle) -> list[Troop]:
    return [Troop(s, PBRoster.from_dict(s.snapshot)) for s in battle_sides(battle)]


def find(troops: list[Troop], soldier_id: str, field: str) -> Troop:
    """The troop of a "side:soldier" choice, checking the soldier is in it."""
    side, _sep, sid = soldier_id.partition(":")
    if not side.isdecimal() or int(side) not in (0, 1):
        raise ValidationError({field: [_("Choose a soldier from the list.")]})
    troop = troops[int(side)]
    troop.soldier(sid, field)
    return troop


def sid(value: str) -> str:
    return value.partition(":")[2]


def standing(troops: list[Troop], key: str, field: str):
    """The troop and soldier of a "side:soldier" choice who is not down."""
    troop = find(troops, key, field)
    soldier = troop.soldier(sid(key), field)
    if troop.down(soldier.id):
        raise ValidationError({field: [_("%(s)s is down.") % {"s": say(troop.named(soldier.id))}]})
    return troop, soldier


def kill(troop: Troop, soldier_id: str, turn: int, cause: str) -> bool:
    if troop.down(soldier_id):
        return False
    troop.side.casualties = [
        *troop.side.casualties,
        {"soldier_id": soldier_id, "turn": turn, "cause": cause},
    ]
    return True


def spend(troop: Troop, po: int, why: str) -> None:
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


def check_turn(turn: int) -> None:
    if not isinstance(turn, int) or not 1 <= turn <= TURNS:
        raise ValidationError({"turn": [_("A turn from 1 to %(n)s.") % {"n": TURNS}]})


def area_targets(troops, targets: list[str], dirt: list[str]) -> list[tuple[Troop, pbe.Target]]:
    if not targets:
        raise ValidationError({"targets": [_("Choose the soldiers caught in the area.")]})
    out = []
    for t in targets:
        troop = find(troops, t, "targets")
        out.append((troop, troop.target(sid(t), "targets", t in dirt)))
    return out


def evasions(attack, caught, dice):
    """Each caught soldier's fixed evasion roll against `attack`."""
    return pbe.resolve_fixed_evasions(attack, [t for _tr, t in caught], dice)


def apply_area(caught, results, ex: Explanation, turn: int, cause: str) -> Msg | str:
    """Spend the PO of hitting the dirt and record the eliminated; the outcomes as a message
    naming each soldier's player ("rival's Rifleman 3 eliminated; …")."""
    touched = set()
    for (troop, target), res in zip(caught, results, strict=True):
        ex.extend(res.explanation)
        if res.po_spent:
            spend(troop, res.po_spent, _("Hitting the dirt"))
        if res.outcome == "eliminated":
            kill(troop, target.name, turn, cause)
        touched.add(troop)
    for troop in touched:
        troop.side.save(update_fields=["casualties", "po"])
    return pbl.joined(
        [
            msg(
                "%(soldier)s %(outcome)s",
                soldier=tr.named(t.name),
                outcome=outcome_label(r.outcome),
            )
            for (tr, t), r in zip(caught, results, strict=True)
        ]
    )


def outcome_label(outcome: str) -> Msg | str:
    return pbl.label(pbl.OUTCOMES, outcome)


@dataclass
class Preview:
    """Exact odds of a procedure before anything is rolled."""

    lines: list[tuple[str, str]]


def odds_line(label: str, odds: dict[str, Fraction]) -> tuple[str, str]:
    return label, ", ".join(f"{k} {pct(p)}" for k, p in odds.items() if p) or "—"


def evasion_lines(troops, targets: list[str] | None, attack) -> list[tuple[str, str]]:
    """The odds of each chosen soldier's fixed evasion against `attack`."""
    lines = []
    for t in targets or []:
        s = find(troops, t, "targets").soldier(sid(t), "targets")
        lines.append(
            odds_line(
                f"{say(pbl.soldier_name(s.id))} ({say(pbl.label(pbl.EXPERIENCES, s.experience))})"
                f" vs {attack.name}",
                pbe.fixed_evasion_odds(attack, s.experience),
            )
        )
    return lines
