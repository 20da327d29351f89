"""Every table the seed prints for the Random Scenario Generator, as `Table`s with rule ids.

Printed layouts are kept: each grid below is one printed table, rows of roll ranges and one
value per printed column; `_columns` turns a grid into one `Table` per column so a look-up
names the column it read. The seed wins where the digest differs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any

from rules.cc.common import Nation, Posture, Quality
from rules.cc.generator.state import Orientation
from rules.tables import Table

E, L, G = Quality.ELITE, Quality.LINE, Quality.GREEN
GER, ITA, USA, GB, FR, RU = (
    Nation.GERMANY,
    Nation.ITALY,
    Nation.USA,
    Nation.BRITAIN,
    Nation.FRANCE,
    Nation.RUSSIA,
)

Grid = Sequence[tuple[tuple[int, int], Sequence[Any]]]


def _columns(
    id_: str, rule: str, title: str, headers: Sequence[str], grid: Grid
) -> dict[str, Table]:
    """One `Table` per printed column of `grid`, rows keyed by (low, high) roll ranges."""
    return {
        header: Table(
            id=f"{id_}_{header}",
            rule=rule,
            title=f"{title} ({header})",
            rows={rolls: values[i] for rolls, values in grid},
        )
        for i, header in enumerate(headers)
    }


def _r(low: int, high: int | None = None) -> tuple[int, int]:
    return (low, low if high is None else high)


# RS.2.1 ---------------------------------------------------------------------------------------

AXIS_NATIONALITY = Table(
    id="rs_2_1_axis_nationality",
    rule="RS.2.1",
    title="Axis nationality",
    rows={_r(2, 9): GER, _r(10, 12): ITA},
)

AXIS_YEAR = _columns(
    "rs_2_1_year",
    "RS.2.1",
    "Year",
    (GER, ITA),
    (
        (_r(2), (1943, 1942)),
        (_r(3), (1943, 1943)),
        (_r(4), (1940, 1939)),
        (_r(5), (1945, 1944)),
        (_r(6), (1941, 1943)),
        (_r(7), (1942, 1940)),
        (_r(8), (1943, 1941)),
        (_r(9), (1944, 1942)),
        (_r(10), (1944, 1941)),
        (_r(11, 12), (1944, 1942)),
    ),
)

# RS.2.2 / RS.2.3 ------------------------------------------------------------------------------

ALLIES_VS_GERMANY = _columns(
    "rs_2_2_allies_vs_germany",
    "RS.2.2",
    "Allied nationality vs. Germany",
    ("1939", "1940", "1941", "1942", "1943", "1944", "1945"),
    (
        (_r(2), (FR, FR, FR, RU, FR, FR, FR)),
        (_r(3), (FR, FR, FR, RU, USA, RU, RU)),
        (_r(4), (FR, FR, FR, RU, USA, USA, USA)),
        (_r(5), (FR, FR, RU, RU, USA, USA, USA)),
        (_r(6), (FR, FR, RU, RU, RU, USA, USA)),
        (_r(7), (FR, FR, RU, RU, RU, RU, RU)),
        (_r(8), (FR, FR, RU, RU, RU, RU, RU)),
        (_r(9), (FR, GB, GB, GB, RU, RU, RU)),
        (_r(10), (FR, GB, GB, GB, GB, GB, GB)),
        (_r(11), (FR, GB, GB, GB, GB, GB, GB)),
        (_r(12), (FR, GB, GB, GB, GB, GB, GB)),
    ),
)

ALLIES_VS_ITALY = _columns(
    "rs_2_3_allies_vs_italy",
    "RS.2.3",
    "Allied nationality vs. Italy (and Axis Minors)",
    ("1939", "1940", "1941", "1942", "1943", "1944"),
    (
        (_r(2), (FR, FR, FR, GB, GB, RU)),
        (_r(3), (RU, FR, FR, GB, GB, RU)),
        (_r(4), (RU, FR, FR, GB, GB, RU)),
        (_r(5), (RU, FR, GB, GB, USA, RU)),
        (_r(6), (RU, FR, GB, GB, USA, RU)),
        (_r(7), (RU, GB, GB, RU, USA, RU)),
        (_r(8), (RU, GB, GB, RU, USA, RU)),
        (_r(9), (RU, GB, RU, RU, RU, RU)),
        (_r(10), (RU, GB, RU, RU, RU, RU)),
        (_r(11), (RU, RU, RU, RU, RU, RU)),
        (_r(12), (RU, RU, RU, RU, RU, RU)),
    ),
)

# RS.3 -----------------------------------------------------------------------------------------

QUALITY: dict[Nation, dict[str, Table]] = {
    GER: _columns(
        "rs_3_1_german_quality",
        "RS.3.1",
        "German Troop Quality",
        ("1941", "1942", "1943-44", "1945"),
        (
            (_r(2, 4), (E, E, E, E)),
            (_r(5), (E, E, E, L)),
            (_r(6), (E, E, L, L)),
            (_r(7, 8), (L, L, L, L)),
            (_r(9, 10), (L, L, L, G)),
            (_r(11), (L, L, G, G)),
            (_r(12), (L, G, G, G)),
        ),
    ),
    ITA: _columns(
        "rs_3_1_italian_quality",
        "RS.3.1",
        "Italian (and Axis Minors) Troop Quality",
        ("1939-43 vs. non-Russians", "1939-40 vs. Russia", "1941-44 vs. Russia"),
        (
            (_r(2, 4), (E, E, E)),
            (_r(5), (L, E, E)),
            (_r(6, 8), (L, E, L)),
            (_r(9, 11), (G, E, L)),
            (_r(12), (G, E, G)),
        ),
    ),
    USA: _columns(
        "rs_3_2_american_quality",
        "RS.3.2",
        "American Troop Quality",
        ("1943", "1944", "1945"),
        (
            (_r(2, 3), (E, E, E)),
            (_r(4), (L, E, E)),
            (_r(5, 8), (L, L, E)),
            (_r(9, 10), (G, L, L)),
            (_r(11), (G, G, L)),
            (_r(12), (G, G, G)),
        ),
    ),
    GB: _columns(
        "rs_3_2_british_quality",
        "RS.3.2",
        "British (Commonwealth) Troop Quality",
        ("1941", "1941-42", "1943", "1944", "1945"),
        (
            (_r(2, 4), (E, E, E, E, E)),
            (_r(5), (E, E, E, E, L)),
            (_r(6), (L, E, E, E, L)),
            (_r(7), (L, L, E, E, L)),
            (_r(8), (L, L, L, E, L)),
            (_r(9), (L, L, L, L, L)),
            (_r(10, 11), (G, L, L, L, G)),
            (_r(12), (G, G, G, G, G)),
        ),
    ),
    FR: _columns(
        "rs_3_2_french_quality",
        "RS.3.2",
        "French (and Allied Minor) Troop Quality",
        ("1939", "1940", "1941", "1943-45"),
        (
            (_r(2, 5), (L, E, L, E)),
            (_r(6, 7), (L, L, L, E)),
            (_r(8, 9), (L, L, G, E)),
            (_r(10, 12), (L, G, G, E)),
        ),
    ),
    RU: _columns(
        "rs_3_2_russian_quality",
        "RS.3.2",
        "Russian Troop Quality",
        ("1939-40", "1941", "1942", "1943", "1944", "1945"),
        (
            (_r(2, 3), (E, E, E, E, E, E)),
            (_r(4), (E, L, E, E, E, E)),
            (_r(5), (L, L, L, E, E, E)),
            (_r(6), (L, L, L, L, L, E)),
            (_r(7, 8), (L, L, L, L, L, L)),
            (_r(9), (L, G, L, L, L, L)),
            (_r(10), (L, G, G, L, L, L)),
            (_r(11), (L, G, G, G, G, L)),
            (_r(12), (L, G, G, G, G, G)),
        ),
    ),
}

# The years each printed column covers (Italy's columns also depend on the opponent and are
# chosen in code). Two readings, recorded as ambiguities: Germany can be rolled in 1940 but has
# no 1940 column, so 1940 reads the earliest column, "1941"; Britain's first column is printed
# "1941" next to "1941-42", so it is read as the 1940 column.
UNPRINTED_QUALITY_YEARS = {(GER, 1940), (GB, 1940)}
QUALITY_COLUMN_YEARS: dict[Nation, dict[str, tuple[int, ...]]] = {
    GER: {"1941": (1940, 1941), "1942": (1942,), "1943-44": (1943, 1944), "1945": (1945,)},
    USA: {"1943": (1943,), "1944": (1944,), "1945": (1945,)},
    GB: {
        "1941": (1940,),
        "1941-42": (1941, 1942),
        "1943": (1943,),
        "1944": (1944,),
        "1945": (1945,),
    },
    FR: {"1939": (1939,), "1940": (1940,), "1941": (1941,), "1943-45": (1943, 1944, 1945)},
    RU: {
        "1939-40": (1939, 1940),
        "1941": (1941,),
        "1942": (1942,),
        "1943": (1943,),
        "1944": (1944,),
        "1945": (1945,),
    },
}

# RS.9 -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FortificationOB:
    """A Fortification OB [RS.9]: what it holds, its VP cost and its mines' strength."""

    name: str
    contents: str
    cost: int
    mine_strength: int | None = None
    printed_incompatibility: str = ""


FORTIFICATIONS = Table(
    id="rs_9_fortification_obs",
    rule="RS.9",
    title="Fortification OBs",
    rows={
        f.name: f
        for f in (
            FortificationOB("Atrincheramientos de Urgencia", "6 Foxholes", 1),
            FortificationOB("Atrincheramientos", "6 Foxholes", 2),
            FortificationOB("Atrincheramientos Organizados", "9 Foxholes", 3),
            FortificationOB("Línea de Trincheras de Urgencia", "3 Trenches", 2),
            FortificationOB("Línea de Trincheras", "7 Trenches", 4),
            FortificationOB("Línea de Trincheras Organizada", "10 Trenches", 6),
            FortificationOB("Alambre de Espino", "10 Wire", 3),
            FortificationOB("Punto Fuerte", "1 Bunker + Trench", 2),
            FortificationOB(
                "Complejo de Búnkeres",
                "3 Bunkers + 1 Trench + 1 Wire + 1 Minefield (8 FP)",
                10,
                8,
                "incompatible with 6- or 7-FP minefields",
            ),
            FortificationOB(
                "Campo de Minas de Urgencia",
                "10 Minefields (6 FP)",
                6,
                6,
                "incompatible with 7- or 8-FP minefields or Bunker Complexes",
            ),
            FortificationOB(
                "Campo de Minas",
                "10 Minefields (7 FP)",
                9,
                7,
                "incompatible with 6- or 8-FP minefields or Bunker Complexes",
            ),
            FortificationOB(
                "Campo de Minas de Organizados",
                "10 Minefields (8 FP)",
                12,
                8,
                "incompatible with 6- or 7-FP minefields",
            ),
        )
    },
)

# RS.10–RS.13 ----------------------------------------------------------------------------------

SETUP_DEPTH = Table(
    id="rs_setup_depth",
    rule="RS.10/RS.11.2/RS.13",
    title="Set-up depth in hexes from the friendly edge",
    rows={
        (Posture.DEFEND, Orientation.WIDE): 8,
        (Posture.DEFEND, Orientation.LONG): 12,
        (Posture.ATTACK, Orientation.WIDE): 2,
        (Posture.ATTACK, Orientation.LONG): 3,
        (Posture.RECON, Orientation.WIDE): 4,
        (Posture.RECON, Orientation.LONG): 6,
    },
)

# RS.15 ----------------------------------------------------------------------------------------

FATE_DECK = Table(
    id="rs_15_fate_deck",
    rule="RS.15",
    title="Fate deck",
    rows={
        GER: "German",
        ITA: "Italian (light green)",
        USA: "American",
        GB: "British (light brown)",
        FR: "French (blue)",
        RU: "Russian",
    },
)

# Design guidance ("Consejos") -----------------------------------------------------------------


class FormationSize(StrEnum):
    """Formation sizes of the design tips: Compañía, Destacamento, Patrulla."""

    COMPANY = "company"
    PLATOON = "platoon"
    PATROL = "patrol"


COMPANY_SQUADS = Table(
    id="consejos_company_squads",
    rule="Consejos",
    title="Squads in a company-size OB",
    rows={GER: 9, GB: 9, USA: 12, FR: 12, RU: 15, ITA: 18},
)

FORMATION_SHARE = Table(
    id="consejos_formation_share",
    rule="Consejos",
    title="Share of a company's squads",
    rows={
        FormationSize.COMPANY: Fraction(1),
        FormationSize.PLATOON: Fraction(2, 3),
        FormationSize.PATROL: Fraction(1, 3),
    },
)

FORMATION_LEADERS = Table(
    id="consejos_formation_leaders",
    rule="Consejos",
    title="Leaders per formation",
    rows={FormationSize.COMPANY: 3, FormationSize.PLATOON: 2, FormationSize.PATROL: 1},
)

SURRENDER_SHARE = Table(
    id="consejos_surrender_share",
    rule="Consejos",
    title="Surrender level, share of all units",
    rows={
        FormationSize.COMPANY: Fraction(70, 100),
        FormationSize.PLATOON: Fraction(75, 100),
        FormationSize.PATROL: Fraction(80, 100),
    },
)
