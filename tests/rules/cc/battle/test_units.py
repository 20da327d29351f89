"""The shared unit vocabulary [2.3, 3.2, 13, E44.1, E58.1, O23.3]."""

import pytest

from rules.cc.battle.units import (
    CHANGE_WORDS,
    FIGURES,
    KIND_LABELS,
    LEADERS,
    SIDE_LABELS,
    SOLDIERS,
    Change,
    Unit,
    UnitChange,
    UnitKind,
    apply_change,
    change_text,
)
from rules.cc.common import Faction
from rules.i18n import Msg
from rules.serial import from_data, to_data

AX, AL = Faction.AXIS, Faction.ALLIES


def test_2_3_E58_1_figures_per_kind_and_a_hero_is_a_one_figure_leader():
    assert FIGURES == {UnitKind.SQUAD: 4, UnitKind.TEAM: 2, UnitKind.LEADER: 1, UnitKind.HERO: 1}
    assert set(FIGURES) == SOLDIERS and UnitKind.WEAPON not in SOLDIERS
    assert UnitKind.RADIO not in SOLDIERS and {UnitKind.LEADER, UnitKind.HERO} == LEADERS


@pytest.mark.parametrize(
    ("labels", "enum"), [(KIND_LABELS, UnitKind), (SIDE_LABELS, Faction), (CHANGE_WORDS, Change)]
)
def test_every_value_a_person_reads_has_a_label(labels, enum):
    assert set(labels) == set(enum) and all(isinstance(v, Msg) for v in labels.values())


def test_3_2_4_13_2_unit_state_changes():
    sq = Unit("sq", AX, veteran=True)
    assert apply_change(sq, Change.BREAK).broken
    gone = apply_change(apply_change(sq, Change.BREAK), Change.BREAK)
    assert gone.eliminated and not gone.veteran
    assert apply_change(gone, Change.RALLY) == gone  # an eliminated unit stays eliminated
    sup = apply_change(sq, Change.SUPPRESS)
    assert apply_change(sup, Change.SUPPRESS) == sup
    assert apply_change(sup, Change.SUPPRESS, v19=True) == Unit("sq", AX, broken=True, veteran=True)
    assert apply_change(
        Unit("x", AX, broken=True, suppressed=True), Change.RALLY
    ).suppressed  # 3.2.2
    assert apply_change(sup, Change.UNSUPPRESS) == sq  # 13.3
    assert apply_change(sq, Change.RETREAT) == sq  # O23.3: the players move the counter


def test_O23_3_change_text_counts_the_hexes_of_a_retreat():
    one = change_text(UnitChange("sq", Change.RETREAT, "O23.3", 1))
    two = change_text(UnitChange("sq", Change.RETREAT, "O23.3", 2))
    assert str(one) == "sq retreats 1 hex" and str(two) == "sq retreats 2 hexes"
    assert str(change_text(UnitChange("lt", Change.VETERAN, "E44.1"))) == "lt becomes Veteran"


def test_unit_and_change_round_trip():
    unit = Unit("hero", AL, UnitKind.HERO, broken=True, hex="K5", weapon="lmg")
    change = UnitChange("hero", Change.RETREAT, "O23.3", 2)
    assert from_data(Unit, to_data(unit)) == unit
    assert from_data(UnitChange, to_data(change)) == change
