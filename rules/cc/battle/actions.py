"""Actions and checks that replace or break units [A36, E52, 1.9.1.3, ST-3].

Light Wounds turns a breaking Squad into a Team, Deploy splits a Squad into two Teams, a
Sniper! check may break one unit and, with ST-3, its failure moves the Urban Sniper marker.
They return an `events.EventResult` like the Events do.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from rules.cc.battle.events import EventResult, Placement, affect_units, choose_unit
from rules.cc.battle.units import Change, Unit, UnitKind
from rules.cc.campaign_steps import QUALITY_WORDS
from rules.cc.common import Faction, Quality
from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import msg

LIGHT_WOUNDS_VP = -1  # A36
URBAN_SNIPER_FACES = (2, 4)  # ST-3.1


class BreakCause(StrEnum):
    """Why a Squad is breaking, for Light Wounds [A36]."""

    BREAK = "break"  # a Fire, Mines or Ambush result, a Sniper! …: break (or eliminate if broken)
    KIA = "kia"  # E62 eliminates outright
    MELEE = "melee"  # a lost Melee eliminates outright


def light_wounds(
    *, squad: Unit, team: str, quality: Quality, cause: BreakCause = BreakCause.BREAK
) -> EventResult:
    """A36: when a friendly Squad breaks (or, already broken, would be eliminated), its owner
    loses 1 VP and a Team of the OB's quality replaces it in the same hex, broken if the Squad
    was broken, keeping its Weapon, Suppressed and Veteran markers and its activation [A36,
    digest §7.2 #24]. Not against an outright elimination (KIA, a lost Melee)."""
    if squad.kind is not UnitKind.SQUAD:
        raise RuleError(
            msg("Light Wounds is played on a Squad, not on %(unit)s", unit=squad.name), rule="A36"
        )
    if cause is not BreakCause.BREAK:
        raise RuleError(
            msg("Light Wounds cannot stop an outright elimination (KIA or a lost Melee)"),
            rule="A36",
        )
    new = replace(squad, name=team, kind=UnitKind.TEAM)
    explanation = Explanation()
    explanation.add(
        "A36",
        msg(
            "Light Wounds: %(squad)s goes back to the counter mix; %(team)s (%(quality)s) takes its place",
            squad=squad.name,
            team=team,
            quality=QUALITY_WORDS[quality],
        ),
    )
    explanation.add("A36", msg("Light Wounds: the owner loses 1 VP"), LIGHT_WOUNDS_VP)
    return EventResult(
        "A36",
        placed=(Placement(new),),
        removed=(squad.name,),
        vp=LIGHT_WOUNDS_VP,
        explanation=explanation,
    )


def deploy(
    *,
    squad: Unit | None,
    teams: tuple[str, str],
    quality: Quality,
    weapon_to: int = 0,
    suppressed_to: int = 0,
    veteran_to: int = 0,
) -> EventResult:
    """E52: the receiver may replace one friendly Squad (`None` declines) with two Teams of the
    OB's quality, broken if the Squad was; its Weapon, Suppressed and Veteran markers each go
    to one Team only (`*_to` = 0 or 1, the receiver's choice) [E52.1–E52.2]."""
    if squad is None:
        return affect_units("E52", msg("Deploy"), None, [], must=False)
    if squad.kind is not UnitKind.SQUAD:
        raise RuleError(msg("Deploy replaces a Squad, not %(unit)s", unit=squad.name), rule="E52")
    if {weapon_to, suppressed_to, veteran_to} - {0, 1}:
        raise RuleError(msg("each marker goes to Team 0 or Team 1"), rule="E52.2")
    placed = tuple(
        Placement(
            replace(
                squad,
                name=name,
                kind=UnitKind.TEAM,
                weapon=squad.weapon if weapon_to == i else "",
                suppressed=squad.suppressed and suppressed_to == i,
                veteran=squad.veteran and veteran_to == i,
            )
        )
        for i, name in enumerate(teams)
    )
    explanation = Explanation()
    explanation.add(
        "E52",
        msg(
            "Deploy: %(squad)s becomes %(a)s and %(b)s (%(quality)s)",
            squad=squad.name,
            a=teams[0],
            b=teams[1],
            quality=QUALITY_WORDS[quality],
        ),
    )
    return EventResult("E52", placed=placed, removed=(squad.name,), explanation=explanation)


def sniper(
    *,
    roller: Faction,
    candidates: tuple[Unit, ...],
    chosen: str | None = None,
    enemy_only: bool = False,
) -> EventResult:
    """Sniper! [1.9.1.3]: the roller may break one unit in or adjacent to the random hex
    (`candidates`, as the players read them). The core text says "a unit", friend or foe;
    `enemy_only` plays ST-3's "enemy units" instead (digest §7.2 #17). Nothing broken: the
    Sniper "fails" (`declined`), which moves the Urban Sniper marker [ST-3.1]."""
    what = (
        msg("an enemy unit in or adjacent to the random hex")
        if enemy_only
        else msg("a unit in or adjacent to the random hex")
    )
    pool = [u for u in candidates if not enemy_only or u.owner is not roller]
    unit = choose_unit(pool, chosen, what=what, rule="1.9.1.3", receiver=roller, must=False)
    return affect_units("1.9.1.3", msg("Sniper!"), unit, [Change.BREAK], must=False)


@dataclass(frozen=True)
class UrbanSniper:
    """The Urban Sniper marker: who holds it (None: nobody) and its face, +2 or +4 [ST-3.1]."""

    holder: Faction | None = None
    face: int = 2


def urban_sniper_after_failure(*, roller: Faction, marker: UrbanSniper) -> UrbanSniper:
    """ST-3.1: a failed Sniper! check moves the marker one step toward the roller."""
    if marker.holder is None:
        return UrbanSniper(roller, 2)
    if marker.holder is roller:
        return UrbanSniper(roller, 4)
    return UrbanSniper(marker.holder, 2) if marker.face == 4 else UrbanSniper(None, 2)


def use_urban_sniper(*, user: Faction, marker: UrbanSniper) -> tuple[int, UrbanSniper]:
    """ST-3.2: just before a Fire Attack or Melee roll, the holder gives the marker up for
    its face (+2 or +4) to that roll; nobody holds it afterwards."""
    if marker.holder is not user:
        raise RuleError(msg("only the holder of the Urban Sniper marker may use it"), rule="ST-3.2")
    if marker.face not in URBAN_SNIPER_FACES:
        raise RuleError(msg("the Urban Sniper marker shows +2 or +4"), rule="ST-3.1")
    return marker.face, UrbanSniper()
