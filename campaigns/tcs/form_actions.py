"""What a submitted TCS form does, the same for the page and the API: the form's cleaned
values in, the service called, the words shown where the button was out."""

from __future__ import annotations

from django.utils.translation import gettext as _

from campaigns.services.tcs import assault as sa
from campaigns.services.tcs import minefields as mines
from campaigns.services.tcs.minefield_breach import tcs_minefield_breach
from campaigns.tcs.combat_words import minefield_text
from rules.tcs.fire_tables import Terrain


def assault_declare(form, side, user):
    d = form.cleaned_data
    combat = sa.tcs_assault_declare(
        side=side,
        actor=user,
        units=form.chosen(),
        overrun=d.get("overrun", False),
        terrain=Terrain(d["terrain"]),
        enter_cost=d["enter_cost"],
        leave_cost=d.get("leave_cost") or 0,
        mp=d.get("mp"),
        adjacent=d.get("adjacent", False),
        in_stack_at_start=d.get("in_stack_at_start", False),
    )
    return _("Declared: the defender answers with his Final overwatch [22.0]."), combat


def assault_answer(form, combat, side, user):
    combat = sa.tcs_assault_answer(
        combat=combat,
        side=side,
        actor=user,
        stage=form.cleaned_data["stage"],
        answer=form.answer(),
    )
    return _("Done: %(next)s") % {"next": sa.describe(combat, sa.role_of(combat, side))["asks"]}


def minefield_card(action: str, form, side, user):
    """Call the card's service; returns the text shown where the button was."""
    d = form.cleaned_data
    if action == "place":
        row = mines.tcs_minefield_place(
            side=side,
            actor=user,
            hex_=d["hex"],
            sheet=form.sheet(),
            near_platoons=d.get("near_platoons", False),
            far_from_enemy=d.get("far_from_enemy", False),
            enemy_may_deploy=d.get("enemy_may_deploy", False),
            placing_first=not d.get("enemy_set_up_first", False),
        )
        return _("Minefield placed in %(hex)s [21.1].") % {"hex": row["hex"]}
    check = form.check("minefield")
    if action == "enter":
        combat = mines.tcs_minefield_attack(
            side=side,
            actor=user,
            minefield_id=int(d["minefield"]),
            entry=form.entry(form.moves()),
            check=check,
            rolls=d.get("rolls_list"),
        )
    else:
        combat = tcs_minefield_breach(
            side=side,
            actor=user,
            minefield_id=int(d["minefield"]),
            units=form.chosen(),
            began_adjacent=d.get("began_adjacent", False),
            idle=d.get("idle", False),
            dismounted=d.get("dismounted", False),
            enemy_in_hex=d.get("enemy_in_hex", False),
            still_in_hex=form.still_in_hex(),
            entry=form.entry({}),
            check=check,
            rolls=d.get("rolls_list"),
        )
    return minefield_text(combat)
