"""The order of battle as command and morale see it: units, their formations, losses.

A formation with battalion or vehicle morale is an *element* for op-sheet size [6.9.b]; a
battalion among them can give the staff modifier [6.9.c]. Formations without such morale
(regimental guns, heavy-weapons battalions, recon) add nothing to size [6.9.b, 17.1.c].
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from rules.errors import RuleError
from rules.i18n import msg
from rules.serial import Serializable


class UnitCategory(StrEnum):
    """The four unit categories [3.1]."""

    INFANTRY = "infantry"
    HEAVY_WEAPON = "heavy_weapon"
    VEHICLE = "vehicle"
    TRANSPORT = "transport"


class MoraleKind(StrEnum):
    """Which morale a formation keeps [17.1, 17.8]."""

    BATTALION = "battalion"
    VEHICLE = "vehicle"
    NONE = "none"


@dataclass(frozen=True)
class Unit(Serializable):
    id: str
    category: UnitCategory
    formation: str | None = None


@dataclass(frozen=True)
class Formation(Serializable):
    id: str
    morale: MoraleKind
    battalion: bool = False


@dataclass
class OrderOfBattle(Serializable):
    """One side's units and formations; `eliminated` lists units already destroyed."""

    units: dict[str, Unit] = field(default_factory=dict)
    formations: dict[str, Formation] = field(default_factory=dict)
    eliminated: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, formations: list[Formation], units: list[Unit]) -> OrderOfBattle:
        oob = cls({u.id: u for u in units}, {f.id: f for f in formations})
        for unit in units:
            if unit.formation is not None and unit.formation not in oob.formations:
                raise RuleError(
                    msg(
                        "unit %(id)s names unknown formation %(formation)s",
                        id=unit.id,
                        formation=unit.formation,
                    )
                )
        return oob

    def unit(self, unit_id: str) -> Unit:
        if unit_id not in self.units:
            raise RuleError(msg("unknown unit %(unit_id)s", unit_id=unit_id))
        return self.units[unit_id]

    def element(self, unit_id: str) -> str | None:
        """The formation with battalion or vehicle morale the unit belongs to, if any."""
        formation = self.unit(unit_id).formation
        if formation is None or self.formations[formation].morale is MoraleKind.NONE:
            return None
        return formation

    def surviving(self, formation: str) -> set[str]:
        gone = set(self.eliminated)
        return {u.id for u in self.units.values() if u.formation == formation} - gone

    def eliminate(self, unit_id: str) -> None:
        self.unit(unit_id)
        if unit_id not in self.eliminated:
            self.eliminated.append(unit_id)
