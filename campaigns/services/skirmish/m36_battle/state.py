"""What the in-battle services of a "1936" battle share: the units' statuses on each side,
the turn in `battle.play`, the options from the battle's readings, the catalogue's numbers
of a unit, and the names a viewer may read (a hidden enemy unit is only its token)."""

from __future__ import annotations

from dataclasses import dataclass, fields

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from campaigns.models import SkirmishBattle, SkirmishEvent, SkirmishSide
from campaigns.rosters.engine import M1936, jsonable, m36_army_list, m36_army_options
from campaigns.rosters.readings import battle_readings
from campaigns.services.skirmish.common import log_event
from rules.i18n import Msg, msg
from rules.m1936.air import AirOptions
from rules.m1936.army import ArmyEntry, effective_rules, effective_stats
from rules.m1936.assault import AssaultOptions
from rules.m1936.bombard import BombardOptions
from rules.m1936.command import CommandOptions
from rules.m1936.data import Profile, catalogue
from rules.m1936.fire import FireOptions
from rules.m1936.fog import FogOptions
from rules.m1936.morale import battalion_morale
from rules.m1936.turn import Phase, TurnState
from rules.m1936.units import MoraleOptions, UnitStatus, battalion_state
from rules.m1936.vehicles import VehicleOptions

COMMAND_RULES = {"mando": ("Mando",), "mando_or_lider": ("Mando", "Líder")}
_INTS = {"moved_26_29", "prolonged_base_turns"}


@dataclass(frozen=True)
class Options:
    fire: FireOptions
    vehicle: VehicleOptions
    assault: AssaultOptions
    morale: MoraleOptions
    command: CommandOptions
    bombard: BombardOptions
    air: AirOptions
    fog: FogOptions


def _group(cls, prefix: str, read: dict):
    values = {}
    for f in fields(cls):
        key = f"{prefix}_{f.name}"
        if key in read:
            value = read[key]
            values[f.name] = int(value) if f.name in _INTS else value
    if prefix == "command":
        values["command_rules"] = COMMAND_RULES[read["command_command_rules"]]
    return cls(**values)


def options(battle: SkirmishBattle) -> Options:
    read = battle_readings(M1936, battle.readings)
    return Options(
        _group(FireOptions, "fire", read),
        _group(VehicleOptions, "vehicle", read),
        _group(AssaultOptions, "assault", read),
        _group(MoraleOptions, "morale", read),
        _group(CommandOptions, "command", read),
        _group(BombardOptions, "bombard", read),
        _group(AirOptions, "air", read),
        _group(FogOptions, "fog", read),
    )


def units_of(side: SkirmishSide) -> dict[str, UnitStatus]:
    return {k: UnitStatus.from_dict(v) for k, v in (side.units or {}).items()}


def save_units(side: SkirmishSide, units: dict[str, UnitStatus]) -> None:
    side.units = jsonable({k: u.to_dict() for k, u in units.items()})
    side.save(update_fields=["units"])


def require_set_up(side: SkirmishSide, field: str = "__all__") -> None:
    if not side.units:
        raise ValidationError({field: [_("%(p)s has not set up its units.") % {"p": side.player}]})


def other_side(battle: SkirmishBattle, side: SkirmishSide) -> SkirmishSide:
    return SkirmishSide.objects.select_for_update().get(battle=battle, index=1 - side.index)


def unit_of(units: dict[str, UnitStatus], key: str, field: str) -> UnitStatus:
    if key not in units:
        raise ValidationError({field: [_("Choose one of the units.")]})
    return units[key]


def shown(u: UnitStatus, *, own: bool) -> str | Msg:
    """The unit's name, or only its token for the other side while it is hidden."""
    if not own and not u.revealed and u.token is not None:
        return msg("Token %(n)s", n=u.token)
    return u.name


def turn_of(battle: SkirmishBattle) -> TurnState:
    play = battle.play or {}
    return TurnState(play.get("turn", 1), Phase(play.get("phase", Phase.ATTACK.value)))


def set_turn(battle: SkirmishBattle, state: TurnState) -> None:
    battle.play = {**(battle.play or {}), "turn": state.turn, "phase": state.phase.value}


def attacker_index(sides) -> int:
    return next(s.index for s in sides if s.role == "attacker")


@dataclass(frozen=True)
class UnitData:
    entry: ArmyEntry
    profile: Profile
    stats: dict
    rules: list[str]


def unit_data(side: SkirmishSide, key: str) -> UnitData:
    """The catalogue's numbers of unit `key` (its index in the army list) with upgrades."""
    army = m36_army_list(side.snapshot)
    entry = army.entries[int(key)]
    profile = catalogue().profile(army.faction, entry.profile)
    rules = [
        f"{k}({v})" if v is not None else k
        for k, v in effective_rules(
            entry, army.faction, army.quality, m36_army_options(side.snapshot)
        ).items()
    ]
    return UnitData(entry, profile, effective_stats(entry, army.faction), rules)


def battalion(units: dict[str, UnitStatus]):
    return battalion_morale([battalion_state(u) for u in units.values()])


def check_broken(battle: SkirmishBattle, side: SkirmishSide, units: dict[str, UnitStatus]):
    """XI.7: when a side's battalion morale breaks, the battle ends; returns the result."""
    result = battalion(units)
    if result.broken and (battle.play or {}).get("broken") is None:
        battle.play = {**(battle.play or {}), "broken": side.index}
    return result


def store_hit(battle: SkirmishBattle, side, mine, other, theirs):
    """Save both sides' units after an attack on `other`, and whether its battalion broke
    (XI.7); returns the battalion morale of the side attacked."""
    save_units(side, mine)
    save_units(other, theirs)
    broken = check_broken(battle, other, theirs)
    battle.save(update_fields=["play"])
    return broken


def log_break(battle, side, result, actor) -> None:
    if result.broken and battle.play.get("broken") == side.index:
        log_event(
            battle,
            kind=SkirmishEvent.Kind.RULE,
            summary=msg(
                "%(p)s's battalion breaks (%(o)s of %(t)s units out): the battle ends",
                p=str(side.player),
                o=result.destroyed + result.panicked,
                t=result.total,
            ),
            actor=actor,
            rule="M36-XI.7",
            data={"explanation": result.explanation.as_list()},
        )
