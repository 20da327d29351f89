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

from django.utils.translation import gettext, gettext_noop

from rules.cc import gastadores, normandy, stalingrad
from rules.cc.battle.readings import READING_NAMES
from rules.cc.campaign import Machine, Outcome, Phase
from rules.cc.campaign_tables import EXAMPLE_FILE, CampaignTables
from rules.cc.common import Faction
from rules.dice import DiceSource
from rules.errors import RuleError
from rules.tables import load_json

_READ: dict[tuple, Machine] = {}
"""Decoded states kept for reading (`CCTemplate.read`), oldest first."""
_READ_KEPT = 64


@dataclass(frozen=True)
class CCTemplate:
    key: str
    label: str
    module: ModuleType
    state_cls: type[Machine]
    options_cls: type
    sides: tuple[tuple[str, Faction], ...]
    positions: tuple[str, ...]
    maps: Mapping[str, int]
    result_fields: tuple[str, ...]
    """What the result form asks beside the winner: "survivors", or "method" and "vp_margin"."""
    make_result: Callable[[Faction, Mapping[str, Any], Machine], Any]
    description: str = ""
    conclude: str = "conclude_battle"
    number_attr: str = "battle"
    needs_tables: bool = True

    @property
    def title(self) -> str:
        """The template's name in the reader's language (`label` keeps the English id)."""
        return gettext(self.label)

    @property
    def blurb(self) -> str:
        """The template's description in the reader's language."""
        return gettext(self.description) if self.description else ""

    # -- state ---------------------------------------------------------------------------
    def new_state(self, options: Mapping[str, Any]) -> Machine:
        return self.module.new_campaign(self.options_cls(**self.clean_options(options)))

    def load(self, data: Mapping[str, Any]) -> Machine:
        return self.state_cls.from_dict(data)

    def read(self, campaign) -> Machine:
        """The campaign's state for pages and API answers only: decoded once per saved
        version of the campaign (its `updated_at`, which every state write bumps) and kept
        by this process, since decoding grows with the campaign's battles. Never change the
        returned state or hand it to a service: those `load` their own copy."""
        key = (campaign.pk, self.key, campaign.updated_at)
        state = _READ.get(key)
        if state is None:
            state = self.load(campaign.state)
            if campaign.pk is not None and campaign.updated_at is not None:
                _READ[key] = state
                while len(_READ) > _READ_KEPT:
                    _READ.pop(next(iter(_READ)))
        return state

    def number(self, state: Machine) -> int:
        """The battle the campaign is at (Gastadores counts its phases)."""
        return getattr(state, self.number_attr)

    def position(self, state: Machine) -> str:
        if hasattr(state, "position"):
            return state.position
        return f"Scenario {state.scenario}"  # stored on the Battle row: a name, not prose

    def tables(self, data: Mapping[str, Any]) -> CampaignTables | None:
        return CampaignTables.load(data) if self.needs_tables else None

    def example_tables(self) -> dict[str, Any]:
        """The shipped example (seed values only), or nothing for a campaign without tables."""
        return load_json(EXAMPLE_FILE)[self.key] if self.needs_tables else {}

    # -- options -------------------------------------------------------------------------
    def option_fields(self) -> list[dataclasses.Field]:
        """The campaign's own options first, then the battle rule readings it inherits."""
        found = dataclasses.fields(self.options_cls)
        return sorted(found, key=lambda f: f.name in READING_NAMES)

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
        state: Machine,
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
            if self.conclude == "record_result":
                return self.module.record_result(state, result, dice, choices)
            return self.module.conclude_battle(state, result, tables, dice, choices)
        raise RuleError("the campaign is over")

    def faction_of(self, side_order: int) -> Faction:
        return self.sides[side_order][1]


def _stalingrad_result(winner: Faction, data: Mapping[str, Any], _state: Machine) -> Any:
    return stalingrad.StalingradResult(
        winner,
        {
            Faction(side): [stalingrad.CarriedUnit(**unit) for unit in units]
            for side, units in data.get("survivors", {}).items()
        },
    )


def _gastadores_result(winner: Faction, data: Mapping[str, Any], state: Machine) -> Any:
    return gastadores.ScenarioResult(
        scenario=state.scenario,
        winner=winner,
        method=gastadores.WinMethod(data.get("method", "vp")),
        vp_margin=int(data.get("vp_margin") or 0),
    )


TEMPLATES: dict[str, CCTemplate] = {
    t.key: t
    for t in (
        CCTemplate(
            key="stalingrad",
            label=gettext_noop("Stalingrad (Scenario 45)"),
            module=stalingrad,
            state_cls=stalingrad.StalingradState,
            options_cls=stalingrad.StalingradOptions,
            sides=(("Germans", Faction.AXIS), ("Soviets", Faction.ALLIES)),
            positions=stalingrad.POSITIONS,
            maps=stalingrad.MAPS,
            result_fields=("survivors",),
            make_result=_stalingrad_result,
            description=gettext_noop(
                "Five Campaign Positions on the Mamayev Kurgan; decisive victory at the enemy's "
                "end of the track, campaign Sudden Death from battle 5."
            ),
        ),
        CCTemplate(
            key="normandy",
            label=gettext_noop("Normandy toward St-Lô (Scenario 56)"),
            module=normandy,
            state_cls=normandy.NormandyState,
            options_cls=normandy.NormandyOptions,
            sides=(("Americans", Faction.ALLIES), ("Germans", Faction.AXIS)),
            positions=normandy.POSITIONS,
            maps=normandy.MAPS,
            result_fields=(),
            make_result=lambda winner, _data, _state: winner,
            description=gettext_noop(
                "July 1944: the first side to four wins takes the campaign; armor, artillery and "
                "fortification pools, promotions and a rest day."
            ),
        ),
        CCTemplate(
            key="gastadores",
            label=gettext_noop("Gastadores (C3i: US airborne in the Cotentin)"),
            module=gastadores,
            state_cls=gastadores.GastadoresState,
            options_cls=gastadores.GastadoresOptions,
            sides=(("Americans", Faction.ALLIES), ("Germans", Faction.AXIS)),
            positions=(),
            maps={},
            result_fields=("method", "vp_margin"),
            make_result=_gastadores_result,
            description=gettext_noop(
                "Three linked published scenarios; the winner of a phase picks the next one or "
                "cedes it for a resource roll; net VP decide the campaign."
            ),
            conclude="record_result",
            number_attr="stage",
            needs_tables=False,
        ),
    )
}


def template_for(key: str) -> CCTemplate:
    try:
        return TEMPLATES[key]
    except KeyError:
        raise RuleError(f"no Combat Commander campaign template {key!r}") from None
