"""The rule readings a skirmish battle may change: each reading the rules' DECISIONS.md files
record with an alternative, labelled with the rule it changes. Defaults follow the seed's
literal text (the decision files say why where it has none)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_noop as _

from campaigns.rosters.engine import M1936, PARABELLUM


@dataclass(frozen=True)
class Reading:
    """One switch: `choices` None is on/off; otherwise (value, label) pairs. Labels and help
    are message ids, translated where they are shown."""

    key: str
    label: str
    rule: str
    help: str
    default: Any = False
    choices: tuple[tuple[str, str], ...] | None = None

    def clean(self, value: Any) -> Any:
        """The value as stored, or ValueError when it is not one this reading takes."""
        if self.choices is None:
            if isinstance(value, bool):
                return value
            if value in ("true", "on", "1", 1):
                return True
            if value in ("false", "off", "0", 0, "", None):
                return False
            raise ValueError(value)
        if value not in {c for c, _label in self.choices}:
            raise ValueError(value)
        return value


READINGS: dict[str, tuple[Reading, ...]] = {
    PARABELLUM: (
        Reading(
            "cumulative_bands",
            _("Objective bands add up"),
            "D-12 · 9.2",
            _(
                "Take the enemy line / Control the objective: a model in the inner band (enemy "
                "deployment zone, touching the objective) scores 2 VP. On: it also scores the "
                "outer band, 3 VP in all."
            ),
        ),
        Reading(
            "any_double_time_distance",
            _("A double-time move may be shorter than 16 cm"),
            "5",
            _(
                "Off (the seed's words): a double-time move is 16 to 30 cm; a shorter run is a "
                "cautious move. On: any distance up to 30 cm."
            ),
        ),
        Reading(
            "motti_in_anticipation",
            _("MOTTI shot after an anticipation crawl"),
            "7.4 · 10 FINLANDIA",
            _(
                "Off (the seed's words): an anticipation is one crawl and nothing else. On: a "
                "Finnish rifleman may add his free MOTTI shot."
            ),
        ),
    ),
    M1936: (
        Reading(
            "last_piece_per_element",
            _("The rival places the last piece of each element"),
            "M36-I.4",
            _(
                "“Places all except the last one, which the rival places”: off reads it per "
                "sector (the rival places one piece, the placer names its element). On: the "
                "rival places the last piece of every element type."
            ),
        ),
        Reading(
            "objectives_one_per_sector",
            _("One objective in each of sectors 2, 3 and 4"),
            "M36-I.5",
            _("On (the seed's words): one in each. Off: anywhere in sectors 2 to 4."),
            default=True,
        ),
        Reading(
            "excavation_tools_count",
            _("Excavation tools count as construction tools"),
            "M36-VIII.5",
            _(
                "No unit has “Herramientas de Construcción”; on, a unit with Herramientas de "
                "Excavación gives its 16 points and may build what needs tools. Off: only the "
                "named rule counts, so no unit gives 16."
            ),
            default=True,
        ),
        Reading(
            "shovels_add_to_tools",
            _("Shovels add to tools"),
            "M36-VIII.5",
            _("A unit with shovels and tools gives 16 (off) or 4 + 16 = 20 (on)."),
        ),
    ),
}

# the in-battle readings of 1936 (after `Reading`, which that module imports)
from campaigns.rosters.readings_m36 import M36_PLAY_READINGS  # noqa: E402

READINGS[M1936] = (*READINGS[M1936], *M36_PLAY_READINGS)


def readings_for(system: str) -> tuple[Reading, ...]:
    return READINGS.get(system, ())


def battle_readings(system: str, chosen: dict | None) -> dict[str, Any]:
    """Every reading of `system` with the battle's choice, or its default."""
    chosen = chosen or {}
    return {r.key: chosen.get(r.key, r.default) for r in readings_for(system)}
