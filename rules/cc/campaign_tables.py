"""Schemas of the campaign tables the seed only references, supplied per campaign.

The Campaign Forces Table (ST-C1.5.1, NO-C1.51) and the Divisional Reserve Tables (ST-C3.5,
NO-C1.52) are printed on the original scenario sheets, not in the seed. A campaign supplies
them as JSON; every value the seed does not give is null (MISSING) and a procedure that needs
it raises `RuleError` naming the rule. `rules/cc/data/campaign_tables.example.json` holds only
the values the seed gives.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rules.cc.common import Faction, Quality
from rules.errors import RuleError
from rules.tables import MISSING, Field, TableSchema, int_range, load_json, one_of

EXAMPLE_FILE = Path(__file__).parent / "data" / "campaign_tables.example.json"

_SIDES = one_of(*(f.value for f in Faction))

FORCES = TableSchema(
    id="cc.campaign_forces",
    rule="ST-C1.5.1/NO-C1.51",
    title="Campaign Forces Table",
    keyed_by="formation",
    description=(
        "One row per Patrol (Stalingrad) or Section (Normandy), identified as in the campaign's "
        "pools; null values are not given by the seed and must be entered."
    ),
    fields=(
        Field("formation", str, help="id used in the pools (patrol letter or leader name)"),
        Field("side", str, check=_SIDES),
        Field("leader", str, required=False, help="the Patrol/Section Leader counter"),
        Field("kind", str, required=False, help="Rifle, SMG, Engineer, Command …"),
        Field("cost", int, required=False, check=int_range(0), help="VP cost to buy it"),
        Field("orders", int, required=False, check=int_range(0)),
        Field("initiative", int, required=False, check=int_range(0)),
        Field("surrender", int, required=False, check=int_range(0)),
        Field("composition_elite", str, required=False),
        Field("composition_line", str, required=False),
        Field("composition_green", str, required=False),
        Field("note", str, required=False),
    ),
)

DIVISIONAL_RESERVE = TableSchema(
    id="cc.divisional_reserve",
    rule="ST-C3.5/NO-C3.7",
    title="Divisional Reserve Table",
    description="Per side: a 2d6 roll range and the formation (pool id) it names.",
    fields=(
        Field("side", str, check=_SIDES),
        Field("roll_low", int, check=int_range(2, 12)),
        Field("roll_high", int, check=int_range(2, 12)),
        Field("formation", str),
        Field("note", str, required=False),
    ),
    record_check=lambda r: ["roll_low exceeds roll_high"] if r["roll_low"] > r["roll_high"] else [],
)


@dataclass(frozen=True)
class CampaignTables:
    """A campaign's user-supplied tables, validated; `divisional` is None until supplied."""

    forces: Mapping[str, Mapping[str, Any]]
    divisional: tuple[Mapping[str, Any], ...] | None

    @classmethod
    def load(cls, data: Mapping[str, Any]) -> CampaignTables:
        """Validate `{"campaign_forces": {"rows": [...]}, "divisional_reserve": {"rows": ...}}`."""
        forces = FORCES.clean(data["campaign_forces"]["rows"])
        rows = (data.get("divisional_reserve") or {}).get("rows")
        divisional = None if rows is None else tuple(DIVISIONAL_RESERVE.clean(rows))
        return cls({r["formation"]: r for r in forces}, divisional)

    @classmethod
    def example(cls, campaign: str) -> CampaignTables:
        """The shipped example for "stalingrad" or "normandy" (seed values only)."""
        return cls.load(load_json(EXAMPLE_FILE)[campaign])

    def value(self, formation: str, name: str, *, rule: str) -> Any:
        """A value a procedure cannot do without: missing → RuleError naming the rule."""
        found = self.get(formation, name)
        if found is MISSING:
            raise RuleError(
                f"the Campaign Forces Table gives no {name} for {formation}; enter it in the "
                "campaign's tables",
                rule=rule,
            )
        return found

    def get(self, formation: str, name: str) -> Any:
        """A value, or MISSING when the table does not hold it."""
        row = self.forces.get(formation)
        if row is None or row.get(name) is None:
            return MISSING
        return row[name]

    def composition(self, formation: str, quality: Quality) -> Any:
        return self.get(formation, f"composition_{quality.value}")

    def divisional_result(self, side: Faction, roll: int, *, rule: str) -> str:
        if self.divisional is None:
            raise RuleError(
                "the Divisional Reserve Table is not in the seed; enter it in the campaign's "
                "tables",
                rule=rule,
            )
        for row in self.divisional:
            if row["side"] == side.value and row["roll_low"] <= roll <= row["roll_high"]:
                return row["formation"]
        raise RuleError(
            f"the {side.value} Divisional Reserve Table has no row for {roll}", rule=rule
        )
