"""Montecassino four-player scenario: the data as the seed prints it."""

from rules.cc import montecassino as mc
from rules.cc.common import Faction, Posture, Quality

AXIS, ALLIES = Faction.AXIS, Faction.ALLIES


def test_montecassino_castle_hill_data():
    castle = mc.CASTLE_HILL
    assert (castle.map, castle.vp_axis, castle.time_start, castle.sudden_death) == (9, 14, 2, 12)
    assert (castle.forces[ALLIES].surrender, castle.forces[AXIS].surrender) == (11, 13)
    assert (castle.forces[ALLIES].orders, castle.forces[AXIS].orders) == (6, 4)
    assert (
        castle.forces[ALLIES].quality is Quality.ELITE
        and castle.forces[AXIS].posture is Posture.DEFEND
    )
    assert sorted(castle.forces[ALLIES].reinforcements) == [3, 4, 5]
    assert castle.first_turn is ALLIES


def test_montecassino_hill_236_has_no_time_vp_or_surrender():
    hill = mc.HILL_236
    assert (hill.map, hill.vp_axis, hill.time_start, hill.sudden_death, hill.objectives) == (
        11,
        None,
        None,
        None,
        None,
    )
    assert hill.forces[AXIS].quality is Quality.ELITE and hill.first_turn is AXIS
    assert hill.forces[ALLIES].surrender is None


def test_montecassino_team_result_and_radios():
    assert mc.team_result(AXIS) is AXIS
    assert mc.radio_operative(ALLIES, ALLIES) and not mc.radio_operative(ALLIES, AXIS)
    assert not mc.radio_operative(None, AXIS)
