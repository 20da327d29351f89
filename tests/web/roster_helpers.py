"""Building 1936 army lists and battles for the roster tests."""

from campaigns.services.rosters import roster_create, roster_edit
from campaigns.services.skirmish import skirmish_create, skirmish_join

DEFENDER_UNITS = ("Sección de Zapadores", "Sección Infantería de Línea (bien equipada)", "Oficial")


def m1936_list(owner, *units, faction="Nacionales", role="Atacante", name="Columna"):
    """A small Regulares list with these units added through the builder."""
    roster = roster_create(
        owner=owner,
        system="m1936",
        name=name,
        faction=faction,
        role=role,
        quality="Regulares",
        size="Pequeña",
    )
    for profile in units:
        roster = roster_edit(
            roster=roster, actor=owner, edit={"op": "add_unit", "profile": profile}
        )
    return roster


def m1936_battle(attacker, defender, attacking_units, defending_units=DEFENDER_UNITS):
    """Nacionales attack Republicanos; the defender has joined."""
    nat = m1936_list(attacker, *attacking_units)
    rep = m1936_list(
        defender, *defending_units, faction="Republicanos", role="Defensor", name="Brigada"
    )
    battle = skirmish_create(creator=attacker, roster=nat, role="attacker", opponent=defender)
    skirmish_join(battle=battle, actor=defender, roster=rep)
    return battle
