"""HOUSE RULES for campaigns of linked battles. None of this is in the Parabellum rulebook.

The rules have no campaign system: every battle starts from a fresh PM budget and nothing
carries over (digest §8). These options, all off by default, add what a campaign needs:

- HR-1 casualties carry over: each soldier eliminated in a battle rolls 3D6 after it and
  recovers on `recovery_target`+ (borrowing the medic's 11+ from §8.3.2), else dies;
- HR-2 promotion: survivors gain service; recruits become regulars and regulars veterans
  after the set number of battles (a campaign veteran costs no PM);
- HR-3 replacements: every dead soldier is replaced by a recruit in the same role with the
  basic squad weapon (the "reemplazos" of §8.2.2);
- HR-4 operative-point carry-over: PO left at the end of a battle are added to the next
  battle's starting PO, optionally capped.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from rules.dice import DiceSource, RollRecord
from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import Msg, msg, nmsg
from rules.parabellum import labels as pbl
from rules.parabellum.battle import Battle
from rules.parabellum.data import nation
from rules.parabellum.rolls import roll_3d6
from rules.parabellum.roster import Roster, Soldier

MEDIC_TARGET = 11


@dataclass(frozen=True)
class HouseRules:
    """Campaign options; every one is a house rule and off by default."""

    casualties_carry_over: bool = False
    recovery_target: int = MEDIC_TARGET
    promotion: bool = False
    battles_to_regular: int = 1
    battles_to_veteran: int = 3
    replacements: bool = False
    carry_over_po: bool = False
    po_carry_over_cap: int | None = None

    def __post_init__(self) -> None:
        if not 3 <= self.recovery_target <= 19:
            raise RuleError(msg("the recovery roll is 3D6: a target from 3 to 19"), rule="HR-1")
        if self.battles_to_regular < 1 or self.battles_to_veteran < 1:
            raise RuleError(msg("promotion needs at least one battle survived"), rule="HR-2")
        if self.po_carry_over_cap is not None and self.po_carry_over_cap < 0:
            raise RuleError(msg("the PO carry-over cap cannot be negative"), rule="HR-4")

    @property
    def understrength_ok(self) -> bool:
        """Dead soldiers without replacements leave the squad short: pass to `validate_roster`."""
        return self.casualties_carry_over and not self.replacements

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HouseRules:
        names = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in names})


@dataclass(frozen=True)
class SquadOutcome:
    """What one battle did to one squad: soldiers eliminated at the end, who fought, PO left."""

    eliminated: tuple[str, ...]
    fought: tuple[str, ...]
    po_left: int


def outcome_for(battle: Battle, side: int) -> SquadOutcome:
    """A squad's outcome from a battle record (soldiers healed by a medic are not casualties)."""
    s = battle.sides[side]
    final = battle.final
    return SquadOutcome(
        eliminated=tuple(s.eliminated(final.turn)),
        fought=tuple(x.id for x in s.roster.active),
        po_left=final.sides[side].po,
    )


@dataclass(frozen=True)
class Change:
    rule: str
    soldier_id: str | None
    text: str | Msg
    roll: RollRecord | None = None


@dataclass
class PostBattle:
    roster: Roster
    changes: list[Change] = field(default_factory=list)
    explanation: Explanation = field(default_factory=Explanation)

    def note(
        self, rule: str, soldier_id: str | None, text: str | Msg, roll: RollRecord | None = None
    ) -> None:
        self.changes.append(Change(rule, soldier_id, text, roll))
        self.explanation.add(rule, msg("house rule: %(text)s", text=text), roll=roll)


def apply_post_battle(
    roster: Roster, outcome: SquadOutcome, house_rules: HouseRules, dice: DiceSource
) -> PostBattle:
    """The roster for the next battle under `house_rules`; with every option off it is unchanged."""
    result = PostBattle(roster)
    eliminated = set(outcome.eliminated)
    if house_rules.casualties_carry_over:
        _recover_or_die(result, eliminated, house_rules, dice)
    if house_rules.promotion:
        _promote(result, set(outcome.fought) - eliminated, house_rules)
    if house_rules.replacements:
        _replace_dead(result)
    if house_rules.carry_over_po:
        cap = house_rules.po_carry_over_cap
        carried = outcome.po_left if cap is None else min(cap, outcome.po_left)
        result.roster = dataclasses.replace(result.roster, carried_po=carried)
        result.note("HR-4", None, msg("%(po)s PO carried over to the next battle", po=carried))
    return result


def _recover_or_die(
    result: PostBattle, eliminated: set[str], hr: HouseRules, dice: DiceSource
) -> None:
    for s in result.roster.soldiers:
        if s.id not in eliminated or s.status != "active":
            continue
        record = roll_3d6(
            dice,
            purpose=msg("recovery of %(soldier)s", soldier=pbl.soldier_name(s.id)),
            rule="HR-1",
        )
        if record.value >= hr.recovery_target:
            result.note(
                "HR-1",
                s.id,
                msg(
                    "%(soldier)s recovers (%(roll)s ≥ %(target)s)",
                    soldier=pbl.soldier_name(s.id),
                    roll=record.value,
                    target=hr.recovery_target,
                ),
                record,
            )
        else:
            result.roster = result.roster.replace(dataclasses.replace(s, status="dead"))
            result.note(
                "HR-1",
                s.id,
                msg(
                    "%(soldier)s dies of wounds (%(roll)s < %(target)s)",
                    soldier=pbl.soldier_name(s.id),
                    roll=record.value,
                    target=hr.recovery_target,
                ),
                record,
            )


def _promote(result: PostBattle, survivors: set[str], hr: HouseRules) -> None:
    steps = {
        "recruit": ("regular", hr.battles_to_regular),
        "regular": ("veteran", hr.battles_to_veteran),
    }
    for s in result.roster.soldiers:
        if s.id not in survivors or s.status != "active":
            continue
        service = s.service + 1
        new = dataclasses.replace(s, service=service)
        if s.experience in steps and service >= steps[s.experience][1]:
            level = steps[s.experience][0]
            new = dataclasses.replace(
                new, experience=level, experience_source="campaign", service=0
            )
            result.note(
                "HR-2",
                s.id,
                nmsg(
                    "%(soldier)s promoted %(old)s → %(new)s after %(n)s battle",
                    "%(soldier)s promoted %(old)s → %(new)s after %(n)s battles",
                    service,
                    soldier=pbl.soldier_name(s.id),
                    old=pbl.label(pbl.EXPERIENCES, s.experience),
                    new=pbl.label(pbl.EXPERIENCES, level),
                ),
            )
        result.roster = result.roster.replace(new)


def _replace_dead(result: PostBattle) -> None:
    squad_nation = nation(result.roster.type.nation)
    taken = {s.id for s in result.roster.soldiers}
    replaced = {s.replaces for s in result.roster.soldiers}
    for s in result.roster.soldiers:
        if s.status != "dead" or s.id in replaced:
            continue
        n = 1
        while f"{s.id}-r{n}" in taken:
            n += 1
        new = Soldier(
            id=f"{s.id}-r{n}",
            role=s.role,
            weapon=squad_nation.base_weapon(s.role),
            experience="recruit",
            experience_source="campaign",
            scout=s.scout,
            replaces=s.id,
        )
        taken.add(new.id)
        result.roster = dataclasses.replace(result.roster, soldiers=(*result.roster.soldiers, new))
        result.note(
            "HR-3",
            new.id,
            msg(
                "recruit %(new)s replaces %(old)s as %(role)s",
                new=pbl.soldier_name(new.id),
                old=pbl.soldier_name(s.id),
                role=pbl.role_label(s.role),
            ),
        )
