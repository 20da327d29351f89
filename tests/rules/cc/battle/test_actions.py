"""Actions and checks that replace or break units [A36, E52, 1.9.1.3, ST-3]."""

import pytest

from rules.cc.battle.actions import (
    BreakCause,
    UrbanSniper,
    deploy,
    light_wounds,
    sniper,
    urban_sniper_after_failure,
    use_urban_sniper,
)
from rules.cc.battle.events import EventResult
from rules.cc.battle.units import Unit, UnitKind
from rules.cc.common import Faction, Quality
from rules.errors import RuleError
from rules.serial import from_data, to_data

AX, AL = Faction.AXIS, Faction.ALLIES


def test_A36_light_wounds_team_keeps_markers_and_costs_1_vp():
    squad = Unit("sq", AX, broken=True, suppressed=True, veteran=True, hex="K5", weapon="lmg")
    result = light_wounds(squad=squad, team="team", quality=Quality.LINE)
    (placed,) = result.placed
    assert placed.unit == Unit(
        "team",
        AX,
        UnitKind.TEAM,
        broken=True,
        suppressed=True,
        veteran=True,
        hex="K5",
        weapon="lmg",
    )
    assert result.vp == -1 and result.removed == ("sq",)
    with pytest.raises(RuleError, match="outright elimination"):
        light_wounds(squad=squad, team="team", quality=Quality.LINE, cause=BreakCause.KIA)
    with pytest.raises(RuleError, match="Squad"):
        light_wounds(squad=Unit("t", AX, UnitKind.TEAM), team="team", quality=Quality.LINE)


def test_E52_deploy_markers_go_to_one_team_only():
    squad = Unit("sq", AX, broken=True, suppressed=True, veteran=True, weapon="lmg")
    result = deploy(
        squad=squad, teams=("t1", "t2"), quality=Quality.ELITE, weapon_to=1, veteran_to=1
    )
    t1, t2 = (p.unit for p in result.placed)
    assert t1.broken and t2.broken
    assert (t1.weapon, t1.suppressed, t1.veteran) == ("", True, False)
    assert (t2.weapon, t2.suppressed, t2.veteran) == ("lmg", False, True)
    assert deploy(squad=None, teams=("a", "b"), quality=Quality.LINE).declined


def test_1_9_1_3_sniper_may_break_any_unit_or_enemy_only_flag():
    own, foe = Unit("own", AX), Unit("foe", AL)
    assert sniper(roller=AX, candidates=(own, foe), chosen="own").changes[0].unit == "own"
    with pytest.raises(RuleError):
        sniper(roller=AX, candidates=(own, foe), chosen="own", enemy_only=True)
    assert sniper(roller=AX, candidates=(own, foe)).declined


@pytest.mark.parametrize(
    ("holder", "face", "new"),
    [
        (AL, 4, UrbanSniper(AL, 2)),
        (AL, 2, UrbanSniper()),
        (None, 2, UrbanSniper(AX, 2)),
        (AX, 2, UrbanSniper(AX, 4)),
        (AX, 4, UrbanSniper(AX, 4)),
    ],
)
def test_ST_3_1_failed_sniper_moves_the_marker(holder, face, new):
    assert urban_sniper_after_failure(roller=AX, marker=UrbanSniper(holder, face)) == new


def test_ST_3_2_holder_gives_up_marker_for_its_face():
    assert use_urban_sniper(user=AX, marker=UrbanSniper(AX, 4)) == (4, UrbanSniper())
    with pytest.raises(RuleError, match="holder"):
        use_urban_sniper(user=AL, marker=UrbanSniper(AX, 4))


def test_A36_light_wounds_result_round_trips():
    result = light_wounds(squad=Unit("sq", AX, hex="K5"), team="team", quality=Quality.GREEN)
    assert from_data(EventResult, to_data(result)) == result
