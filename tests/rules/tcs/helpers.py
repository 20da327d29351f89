"""Small orders of battle for the TCS tests."""

from rules.dice import EnteredDice
from rules.tcs.units import Formation, MoraleKind, OrderOfBattle, Unit, UnitCategory

INF = UnitCategory.INFANTRY
HW = UnitCategory.HEAVY_WEAPON
VEH = UnitCategory.VEHICLE
TRN = UnitCategory.TRANSPORT


def battalion(name, count=9, category=INF, morale=MoraleKind.BATTALION):
    """A battalion-sized formation of `count` units named name/1, name/2 …"""
    formation = Formation(name, morale, battalion=True)
    return formation, [Unit(f"{name}/{i}", category, name) for i in range(1, count + 1)]


def tank_battalion(name, count=9):
    return battalion(name, count, VEH, MoraleKind.VEHICLE)


def oob_of(*groups, loose=()):
    """An order of battle from (formation, units) pairs plus units without a formation."""
    formations = [f for f, _ in groups]
    units = [u for _, us in groups for u in us] + list(loose)
    return OrderOfBattle.of(formations, units)


def units_of(name, oob):
    return sorted(u for u in oob.units if u.startswith(f"{name}/"))


def dice(*values):
    return EnteredDice(values)
