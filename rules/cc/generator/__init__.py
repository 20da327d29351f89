"""Combat Commander Random Scenario Generator [RS.1–RS.17] and design guidance ("Consejos").

Each step is a function taking a `ScenarioState` and returning a `StepResult` (new state,
explanation, and a `Decision` when a player must still choose). `SEQUENCE` lists them in the
seed's order; RS.10–RS.12 apply to Attack/Defend scenarios and RS.13 to Recon ones.
"""

from rules.cc.common import Nation
from rules.cc.generator.battlefield import (
    rs_1_map_choice,
    rs_1_orient_map,
    rs_2_axis_and_allies,
    rs_3_troop_quality,
    rs_4_objectives,
)
from rules.cc.generator.forces import (
    SecondBuyer,
    rs_5_order_of_battle,
    rs_6_leaders,
    rs_7_support,
    rs_8_posture,
    rs_9_fortifications,
    rs_11_1_asset_request,
)
from rules.cc.generator.setup import (
    EndReason,
    rs_10_defender_setup,
    rs_11_2_attacker_setup,
    rs_12_fortification_setup,
    rs_13_recon_setup,
    rs_14_markers,
    rs_15_cards,
    rs_16_zero_hour,
    rs_17_battle_result,
)
from rules.cc.generator.state import MapEdge, Orientation, ScenarioState, SideState, StepResult
from rules.cc.generator_tables import GeneratorData

SEQUENCE = (
    rs_1_map_choice,
    rs_1_orient_map,
    rs_2_axis_and_allies,
    rs_3_troop_quality,
    rs_4_objectives,
    rs_5_order_of_battle,
    rs_6_leaders,
    rs_7_support,
    rs_8_posture,
    rs_9_fortifications,
    rs_10_defender_setup,
    rs_11_1_asset_request,
    rs_11_2_attacker_setup,
    rs_12_fortification_setup,
    rs_13_recon_setup,
    rs_14_markers,
    rs_15_cards,
    rs_16_zero_hour,
    rs_17_battle_result,
)

__all__ = [
    "SEQUENCE",
    "EndReason",
    "GeneratorData",
    "MapEdge",
    "Nation",
    "Orientation",
    "ScenarioState",
    "SecondBuyer",
    "SideState",
    "StepResult",
    *(step.__name__ for step in SEQUENCE),
]
