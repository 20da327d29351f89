"""Fixtures shared by the campaign tests.

The Campaign Forces and Divisional Reserve Tables are not in the seed; the values below are
FICTIONAL test data (never shipped), chosen so that hand computations stay simple.
"""

from __future__ import annotations

import random
from typing import Any

from rules.cc.campaign import Outcome
from rules.cc.campaign_tables import EXAMPLE_FILE, CampaignTables
from rules.tables import load_json


def _row(formation: str, side: str, cost: int | None = None, **extra: Any) -> dict[str, Any]:
    return {"formation": formation, "side": side, "cost": cost, **extra}


def _divisional(side: str, ranges: dict[tuple[int, int], str]) -> list[dict[str, Any]]:
    return [
        {"side": side, "roll_low": lo, "roll_high": hi, "formation": f}
        for (lo, hi), f in ranges.items()
    ]


def example_priced(campaign: str, cost: int = 2) -> CampaignTables:
    """The shipped example (seed values) with a FICTIONAL cost wherever the seed gives none."""
    data = load_json(EXAMPLE_FILE)[campaign]
    rows = [
        {**r, "cost": cost if r.get("cost") is None else r["cost"]}
        for r in data["campaign_forces"]["rows"]
    ]
    return CampaignTables.load({**data, "campaign_forces": {"rows": rows}})


STALINGRAD_DATA: dict[str, Any] = {
    "campaign_forces": {
        "rows": [
            _row("German Command Patrol", "axis", orders=2, initiative=3, surrender=4),
            _row("Russian Command Patrol", "allies", orders=2, initiative=2, surrender=5),
            *(_row(p, "axis", 2, orders=1, initiative=2, surrender=2) for p in "CD"),
            *(_row(p, "axis", 3, orders=1, initiative=2, surrender=2) for p in ("F", "Pionier")),
            *(_row(p, "allies", 2, orders=1, initiative=1, surrender=3) for p in "AB"),
            *(
                _row(p, "allies", 3, orders=1, initiative=1, surrender=3)
                for p in ("E", "Assault Engineers")
            ),
        ]
    },
    "divisional_reserve": {
        "rows": [
            *_divisional("axis", {(2, 4): "C", (5, 7): "D", (8, 9): "F", (10, 12): "Pionier"}),
            *_divisional(
                "allies", {(2, 4): "A", (5, 7): "B", (8, 9): "E", (10, 12): "Assault Engineers"}
            ),
        ]
    },
}
STALINGRAD_TABLES = CampaignTables.load(STALINGRAD_DATA)

NORMANDY_DATA: dict[str, Any] = {
    "campaign_forces": {
        "rows": [
            _row("Craighead", "allies", orders=2, initiative=2, surrender=3),
            _row("Heinzmann", "axis", orders=2, initiative=1, surrender=3),
            *(
                _row(n, "allies", 2, orders=1, initiative=4, surrender=3)
                for n in ("Krauss", "Bowen", "Cawthon", "Slingsluff", "Miller", "Ewing")
            ),
            _row("Richardson", "allies", 3, orders=1, initiative=4, surrender=3),
            *(
                _row(n, "axis", 3, orders=1, initiative=4, surrender=3)
                for n in ("Ehnert", "Hummel", "Becker", "Wetteman", "Rubart", "Gessler")
            ),
            _row("Von Hoffman", "axis", 4, orders=1, initiative=4, surrender=3),
        ]
    },
    "divisional_reserve": {
        "rows": [
            *_divisional(
                "allies",
                {
                    (2, 3): "Richardson",
                    (4, 6): "Slingsluff",
                    (7, 9): "Miller",
                    (10, 12): "Ewing",
                },
            ),
            *_divisional(
                "axis",
                {
                    (2, 3): "Von Hoffman",
                    (4, 5): "Ehnert",
                    (6, 7): "Wetteman",
                    (8, 9): "Rubart",
                    (10, 11): "Gessler",
                    (12, 12): "Hummel",
                },
            ),
        ]
    },
}
NORMANDY_TABLES = CampaignTables.load(NORMANDY_DATA)

MULTI = ("purchase.", "reinforcements.", "weapons.", "rest_day.")


def done(outcome: Outcome) -> Any:
    """The new state of a completed procedure (fails loudly on an unexpected decision)."""
    assert outcome.decision is None, outcome.decision
    return outcome.state


def play(procedure, state, rng: random.Random, vp_range: int = 6) -> Outcome:
    """Run `procedure(state, choices)`, answering every decision at random with legal options."""
    outcome = procedure(state, {})
    answers: dict[str, Any] = {}
    while outcome.decision is not None:
        d = outcome.decision
        if d.key.startswith(MULTI):
            most = 1 if d.key.startswith("reinforcements.") else len(d.options)
            answers[d.key] = rng.sample(list(d.options), rng.randint(0, most))
        elif d.key == "rs7.vp_axis":
            answers[d.key] = rng.randint(-vp_range, vp_range)
        else:
            answers[d.key] = rng.choice(d.options)
        outcome = procedure(outcome.state, {d.key: answers[d.key]})
    return outcome
