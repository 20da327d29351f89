"""Smoke and Illum markers [19, 24.3.c, 24.5.a, 26.2]: placement and their lifecycle.

A JSON-safe list of markers. Artillery smoke is a Smoke 2 marker whose neighbours count as
smoked [19.3]; mortar and IG smoke fills its hex only and goes at the start of its owner's
next Action Phase [19.2, 19.3.c]. The Mortar and Infantry Gun Smoke Table is not in the
seed: its number is read off the chart (or the result entered) at the roll.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from rules.dice import D6, DiceSource, RollRecord
from rules.errors import RuleError
from rules.explain import Decision, DecisionRequired, Explanation
from rules.i18n import msg
from rules.serial import Serializable
from rules.tcs.clock import Light

ARTILLERY_SMOKE_LEVEL = 2  # [19.3.a]
ILLUM_RADIUS = {"artillery": 5, "mortar_ig": 3}  # [26.2.b]
MORTAR_SMOKE_MIN_MM = 80  # mortars of 3"/80 mm or more [24.3.c]
IG_SMOKE_MIN_MM = 100  # IGs of 100 mm or more [24.5.a]


class MarkerKind(StrEnum):
    SMOKE = "smoke"
    ILLUM = "illum"


class Source(StrEnum):
    ARTILLERY = "artillery"
    MORTAR_IG = "mortar_ig"


@dataclass
class Marker(Serializable):
    kind: MarkerKind
    hex: str
    source: Source
    owner: str
    level: int = 1

    @property
    def radius(self) -> int:
        return ILLUM_RADIUS[self.source.value] if self.kind is MarkerKind.ILLUM else 0


@dataclass(frozen=True)
class SmokeRoll:
    placed: bool
    roll: RollRecord | None
    explanation: Explanation


@dataclass
class Markers(Serializable):
    markers: list[Marker] = field(default_factory=list)

    def place_artillery_smoke(self, hex_: str, owner: str, *, all_water: bool) -> Explanation:
        """A successful smoke mission: Smoke 2 in the zone hex [19.3.a]; never in an all-water
        hex, where it counts as No Shoot [19.1.b]."""
        exp = Explanation()
        if all_water:
            exp.add("19.1.b", msg("all-water hex: no smoke (No Shoot)"))
            return exp
        self.markers.append(
            Marker(MarkerKind.SMOKE, hex_, Source.ARTILLERY, owner, ARTILLERY_SMOKE_LEVEL)
        )
        exp.add("19.3.a", msg("Smoke 2 placed in %(hex)s", hex=hex_), ARTILLERY_SMOKE_LEVEL)
        return exp

    def fire_mortar_smoke(
        self,
        hex_: str,
        owner: str,
        dice: DiceSource | None,
        *,
        mortar: bool,
        calibre_mm: int,
        all_water: bool = False,
        success_from: int | None = None,
        succeeded: bool | None = None,
    ) -> SmokeRoll:
        """A mortar (3"/80 mm+) or IG (100 mm+) smoke round instead of an SFA [24.3.c,
        24.5.a]: a d6 on the Mortar and Infantry Gun Smoke Table; `success_from` is the
        lowest succeeding roll read off the chart, or `succeeded` the result read there."""
        floor = MORTAR_SMOKE_MIN_MM if mortar else IG_SMOKE_MIN_MM
        if calibre_mm < floor:
            raise RuleError(
                msg("too small a calibre for smoke rounds (%(mm)s mm or more)", mm=floor),
                rule="24.3.c" if mortar else "24.5.a",
            )
        if all_water:
            raise RuleError(msg("smoke is never placed in an all-water hex"), rule="19.1.b")
        exp, roll = Explanation(), None
        if succeeded is None:
            if success_from is None:
                raise DecisionRequired(
                    Decision(
                        "mortar_smoke",
                        "24.3.c",
                        msg(
                            "Read the Mortar and Infantry Gun Smoke Table: lowest roll that "
                            "places smoke"
                        ),
                        tuple(range(1, 8)),
                    )
                )
            if dice is None:
                raise RuleError(msg("roll a die for the smoke round"), rule="24.3.c")
            roll = dice.roll(D6, purpose=msg("Mortar and Infantry Gun Smoke Table"), rule="24.3.c")
            succeeded = roll.value >= success_from
            exp.add("24.3.c", msg("smoke round roll"), roll.value, roll=roll)
        if succeeded:
            self.markers.append(Marker(MarkerKind.SMOKE, hex_, Source.MORTAR_IG, owner))
            exp.add("19.3.c", msg("smoke placed in %(hex)s only", hex=hex_))
        else:
            exp.add("24.3.c", msg("no smoke"))
        return SmokeRoll(bool(succeeded), roll, exp)

    def place_illum(self, hex_: str, owner: str, source: Source, light: Light) -> Explanation:
        """An Illum marker: radius 5 (artillery) or 3 (mortar/IG); not usable at dawn, dusk
        or twilight [26.2.b]."""
        if Light(light) in (Light.DAWN, Light.DUSK, Light.TWILIGHT):
            raise RuleError(
                msg("Illum markers cannot be used at dawn, dusk or twilight"), rule="26.2.b"
            )
        marker = Marker(MarkerKind.ILLUM, hex_, Source(source), owner)
        self.markers.append(marker)
        exp = Explanation()
        exp.add("26.2.b", msg("Illum placed in %(hex)s: radius", hex=hex_), marker.radius)
        return exp

    def clean_up(self) -> Explanation:
        """Clean-up Phase, in order: artillery Illum off, Smoke Level 1 off, Level 2 → 1
        [26.2.c, 19.2]. Mortar/IG markers wait for their owner's Action Phase."""
        exp = Explanation()
        art = Source.ARTILLERY
        before = len(self.markers)
        self.markers = [
            m for m in self.markers if not (m.kind is MarkerKind.ILLUM and m.source is art)
        ]
        exp.add("26.2.c", msg("artillery Illum markers removed"), before - len(self.markers))
        before = len(self.markers)
        self.markers = [
            m
            for m in self.markers
            if not (m.kind is MarkerKind.SMOKE and m.source is art and m.level == 1)
        ]
        exp.add("19.2", msg("Smoke Level 1 markers removed"), before - len(self.markers))
        flipped = 0
        for m in self.markers:
            if m.kind is MarkerKind.SMOKE and m.source is art and m.level == 2:
                m.level, flipped = 1, flipped + 1
        exp.add("19.2", msg("Smoke Level 2 markers flipped to Level 1"), flipped)
        return exp

    def start_action_phase(self, owner: str) -> Explanation:
        """The owner's mortar and IG Smoke and Illum markers go [19.2, 26.2.c]."""
        before = len(self.markers)
        self.markers = [
            m for m in self.markers if not (m.source is Source.MORTAR_IG and m.owner == owner)
        ]
        exp = Explanation()
        exp.add("19.2", msg("mortar and IG markers removed"), before - len(self.markers))
        return exp

    def smoked(self, hex_: str, neighbours: Callable[[str], Iterable[str]]) -> bool:
        """Smoke in the hex, or artillery smoke next to it [19.3.b, 19.3.c]."""
        near = set(neighbours(hex_))
        return any(
            m.kind is MarkerKind.SMOKE
            and (m.hex == hex_ or (m.source is Source.ARTILLERY and m.hex in near))
            for m in self.markers
        )
