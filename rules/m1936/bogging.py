"""Bogging down (IV.7): who is at risk where, the bog check and rescue by a tractor.

Both checks are performance rolls whose result R the player enters (see `performance`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import msg
from rules.m1936.data import Category, Profile
from rules.m1936.performance import performance_result
from rules.m1936.weather import Weather, weather_effects
from rules.serial import Serializable

RULE = "M36-IV.7"
BOGGED_AT_MOST = -2
FREED_AT_LEAST = 1
ARMOUR = frozenset({Category.LIGHT_VEHICLE, Category.TANK})
TOWED_RULES = ("Transportable", "Parcialmente Transportable")


class Ground(StrEnum):
    ROAD = "carretera"
    TOWN = "poblado"
    OPEN = "campo abierto"
    WOODS = "bosque"


@dataclass(frozen=True)
class BogRisk(Serializable):
    at_risk: bool
    explanation: Explanation = field(default_factory=Explanation, compare=False)


def can_bog(profile: Profile) -> bool:
    """Vehicles, and guns towed by their crew (Transportable rules say bogging applies)."""
    if profile.category in ARMOUR | {Category.TRANSPORT}:
        return True
    return any(profile.has_rule(r) for r in TOWED_RULES)


def bog_risk(profile: Profile, ground: Ground, weather: Weather) -> BogRisk:
    """Whether moving this unit over `ground` in `weather` calls for a bog check."""
    exp = Explanation()
    ground = Ground(ground)
    if not can_bog(profile):
        exp.add(RULE, msg("%(name)s does not bog down", name=profile.name), False)
        return BogRisk(False, exp)
    reasons = []
    if ground is Ground.WOODS:
        reasons.append((RULE, "vehicles may bog down in woods (I.6, IV.7)"))
    if profile.has_rule("Poco Fiable") and ground in (Ground.OPEN, Ground.WOODS):
        reasons.append(("M36-III Poco Fiable", "Poco Fiable: bog check off road and town"))
    scope = weather_effects(weather, exp).bog
    if scope == "vehicles_off_road" and ground is not Ground.ROAD:
        reasons.append(("M36-XV.2", f"{weather}: vehicles may bog anywhere except on roads"))
    if scope == "armour_any_terrain" and profile.category in ARMOUR:
        reasons.append(("M36-XV.2", f"{weather}: armoured cars and tanks may bog anywhere"))
    for rule, text in reasons:
        exp.add(rule, text, True)
    if not reasons:
        exp.add(RULE, msg("no bog risk on %(ground)s", ground=ground), False)
    return BogRisk(bool(reasons), exp)


@dataclass(frozen=True)
class BogCheck(Serializable):
    result: int
    bogged: bool
    explanation: Explanation = field(default_factory=Explanation, compare=False)


def bog_check(performance: int) -> BogCheck:
    """A vehicle at risk bogs down and is immobilised on a result of −2 (or worse)."""
    exp = Explanation()
    r = performance_result(performance, purpose=msg("bog check"), rule=RULE, explanation=exp)
    bogged = exp.add(
        RULE,
        msg("bogged down on %(bogged_at_most)s or less", bogged_at_most=BOGGED_AT_MOST),
        r <= BOGGED_AT_MOST,
    )
    return BogCheck(r, bogged, exp)


def unbog_check(performance: int, *, tractor_in_contact: bool) -> BogCheck:
    """A tractor in contact frees a bogged vehicle on a result of +1 or more.

    `bogged` in the result is whether the vehicle is still bogged down.
    """
    if not tractor_in_contact:
        raise RuleError(msg("only a tractor in contact can rescue a bogged vehicle"), rule=RULE)
    exp = Explanation()
    r = performance_result(performance, purpose=msg("unbogging"), rule=RULE, explanation=exp)
    freed = exp.add(
        RULE,
        msg("freed on +%(freed_at_least)s or more", freed_at_least=FREED_AT_LEAST),
        r >= FREED_AT_LEAST,
    )
    return BogCheck(r, not freed, exp)
