"""A squad's record: its soldiers and the roster that lists them (§8.1), as plain data.

The roster's rules (validation, costs, builder options) live in `roster`; the checks of one
rule each in `checks`. Both read these records, so they sit here, below both.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Literal

from rules.errors import RuleError
from rules.parabellum.data import Experience, Role, SpecialistKind, SquadType, squad_type

Status = Literal["active", "dead"]
Source = Literal["bought", "campaign"]


@dataclass(frozen=True)
class Soldier:
    """One soldier. `experience_source="campaign"` marks a house-rule promotion or replacement,
    which costs no PM and is outside the list's caps; `status`, `service` and `replaces` are
    house-rule campaign state (the rulebook itself has no persistent casualties)."""

    id: str
    role: Role
    weapon: str
    name: str = ""
    extras: tuple[str, ...] = ()
    experience: Experience = "regular"
    specialist: SpecialistKind | None = None
    scout: bool = False
    status: Status = "active"
    experience_source: Source = "bought"
    service: int = 0
    replaces: str | None = None

    def to_dict(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["extras"] = list(self.extras)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Soldier:
        names = {f.name for f in dataclasses.fields(cls)}
        kwargs = {k: v for k, v in data.items() if k in names}
        kwargs["extras"] = tuple(kwargs.get("extras", ()))
        return cls(**kwargs)


@dataclass(frozen=True)
class Roster:
    """A squad: its type (`NATION/key`), soldiers, and PO carried over by house rule HR-4."""

    squad_type: str
    soldiers: tuple[Soldier, ...]
    name: str = ""
    carried_po: int = 0

    @property
    def type(self) -> SquadType:
        return squad_type(self.squad_type)

    @property
    def active(self) -> tuple[Soldier, ...]:
        return tuple(s for s in self.soldiers if s.status == "active")

    def soldier(self, soldier_id: str) -> Soldier:
        for s in self.soldiers:
            if s.id == soldier_id:
                return s
        raise RuleError(f"no soldier {soldier_id!r} in roster {self.name!r}", rule="8")

    def replace(self, new: Soldier) -> Roster:
        return dataclasses.replace(
            self, soldiers=tuple(new if s.id == new.id else s for s in self.soldiers)
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "squad_type": self.squad_type,
            "name": self.name,
            "carried_po": self.carried_po,
            "soldiers": [s.to_dict() for s in self.soldiers],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Roster:
        return cls(
            squad_type=data["squad_type"],
            name=data.get("name", ""),
            carried_po=data.get("carried_po", 0),
            soldiers=tuple(Soldier.from_dict(s) for s in data["soldiers"]),
        )
