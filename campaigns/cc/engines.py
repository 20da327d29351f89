"""Combat Commander campaign templates: how the site drives each engine in rules/cc.

A template names the engine module, its sides (display name and faction), its options and
how a battle result entered on the site becomes the engine's result object. Nothing here
touches the database; services call it with plain data.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from types import ModuleType
from typing import Any

from rules.cc import normandy, stalingrad
from rules.cc.campaign import CampaignState, Outcome, Phase
from rules.cc.campaign_tables import CampaignTables
from rules.cc.common import Faction
from rules.dice import DiceSource
from rules.errors import RuleError


@dataclass(frozen=True)
class CCTemplate:
    key: str
    label: str
    module: ModuleType
    state_cls: type[CampaignState]
    options_cls: type
    sides: tuple[tuple[str, Faction], ...]
    positions: tuple[str, ...]
    maps: Mapping[str, int]
    survivors: bool
    make_result: Callable[[Faction, dict[Faction, list]], Any]
    description: str = ""

    # -- state ---------------------------------------------------------------------------
    def new_state(self, options: Mapping[str, Any]) -> CampaignState:
        return self.module.new_campaign(self.options_cls(**self.clean_options(options)))

    def load(self, data: Mapping[str, Any]) -> CampaignState:
        return self.state_cls.from_dict(data)

    def tables(self, data: Mapping[str, Any]) -> CampaignTables:
        return CampaignTables.load(data)

    def example_tables(self) -> dict[str, Any]:
        from rules.cc.campaign_tables import EXAMPLE_FILE
        from rules.tables import load_json

        return load_json(EXAMPLE_FILE)[self.key]

    # -- options -------------------------------------------------------------------------
    def option_fields(self) -> list[dataclasses.Field]:
        return list(dataclasses.fields(self.options_cls))

    def clean_options(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        """Keep the known options, coerced to their declared types."""
        cleaned = {}
        for f in self.option_fields():
            if f.name not in raw:
                continue
            default = getattr(self.options_cls(), f.name)
            value = raw[f.name]
            if isinstance(default, bool):
                cleaned[f.name] = bool(value)
            elif isinstance(default, Enum):
                cleaned[f.name] = type(default)(value)
            else:
                cleaned[f.name] = type(default)(value)
        return cleaned

    # -- the state machine ---------------------------------------------------------------
    def step(
        self,
        state: CampaignState,
        tables: CampaignTables,
        dice: DiceSource | None,
        choices: Mapping[str, Any],
        result: Any = None,
    ) -> Outcome:
        """Run the procedure the state is waiting for."""
        if state.phase is Phase.FORCES:
            return self.module.prepare_forces(state, tables, dice, choices)
        if state.phase is Phase.SUPPORT:
            return self.module.prepare_support(state, tables, choices)
        if state.phase is Phase.BATTLE:
            if result is None:
                raise RuleError("enter the battle's result first")
            return self.module.conclude_battle(state, result, tables, dice, choices)
        raise RuleError("the campaign is over")

    def faction_of(self, side_order: int) -> Faction:
        return self.sides[side_order][1]


def _stalingrad_result(winner: Faction, survivors: dict[Faction, list]) -> Any:
    return stalingrad.StalingradResult(
        winner,
        {
            side: [stalingrad.CarriedUnit(**unit) for unit in units]
            for side, units in survivors.items()
        },
    )


TEMPLATES: dict[str, CCTemplate] = {
    t.key: t
    for t in (
        CCTemplate(
            key="stalingrad",
            label="Stalingrad (Scenario 45)",
            module=stalingrad,
            state_cls=stalingrad.StalingradState,
            options_cls=stalingrad.StalingradOptions,
            sides=(("Germans", Faction.AXIS), ("Soviets", Faction.ALLIES)),
            positions=stalingrad.POSITIONS,
            maps=stalingrad.MAPS,
            survivors=True,
            make_result=_stalingrad_result,
            description=(
                "Five Campaign Positions on the Mamayev Kurgan; decisive victory at the enemy's "
                "end of the track, campaign Sudden Death from battle 5."
            ),
        ),
        CCTemplate(
            key="normandy",
            label="Normandy toward St-Lô (Scenario 56)",
            module=normandy,
            state_cls=normandy.NormandyState,
            options_cls=normandy.NormandyOptions,
            sides=(("Americans", Faction.ALLIES), ("Germans", Faction.AXIS)),
            positions=normandy.POSITIONS,
            maps=normandy.MAPS,
            survivors=False,
            make_result=lambda winner, _survivors: winner,
            description=(
                "July 1944: the first side to four wins takes the campaign; armor, artillery and "
                "fortification pools, promotions and a rest day."
            ),
        ),
    )
}


def template_for(key: str) -> CCTemplate:
    try:
        return TEMPLATES[key]
    except KeyError:
        raise RuleError(f"no Combat Commander campaign template {key!r}") from None
