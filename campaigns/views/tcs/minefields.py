"""A side's minefields page (phone first) [21]: the operation's markers (public once on the
map), placing one at set-up or from a Prepared Defense sheet [21.1], the side's own units
entering a minefield hex with the exact odds shown before the roll [21.0.b, 21.2], and a
breach attempt [21.3]. Each card posts on its own (htmx swaps the panel)."""

from __future__ import annotations

from types import SimpleNamespace

from django.core.exceptions import ValidationError
from django.shortcuts import render
from django.utils import formats
from django.views.decorators.http import require_POST

from campaigns.i18n import say
from campaigns.idempotency import idempotent_form
from campaigns.selectors.tcs_charts import operation_charts
from campaigns.selectors.tcs_combat import units_in_play
from campaigns.selectors.tcs_minefields import markers, recent_attacks, sheet_grants
from campaigns.services.tcs import minefields as mines
from campaigns.tcs.combat_words import minefield_text
from campaigns.tcs.form_actions import minefield_card
from campaigns.tcs.forms.minefields import BreachForm, EnterForm, PlaceForm
from campaigns.views.tcs.common import (
    card_done,
    card_request,
    load,
    render_card_page,
    run_card,
    side_for,
)
from rules.i18n import msg
from rules.tcs.fire import result_words
from rules.tcs.minefields import MinefieldMarker

CARDS = ("place", "enter", "breach")


def _forms(campaign, side, units, data=None, bound=""):
    rows = markers(campaign)

    def d(name):
        return data if bound == name else None

    return {
        "place": PlaceForm(sheet_grants(campaign, side), d("place"), prefix="place"),
        "enter": EnterForm(units, rows, d("enter"), prefix="enter"),
        "breach": BreachForm(units, rows, d("breach"), prefix="breach"),
    }


@idempotent_form
def tcs_minefields(request, pk: int, side_pk: int):
    campaign, _viewer, side, can_act, action = card_request(request, pk, side_pk, CARDS)
    units = units_in_play(side)
    forms = _forms(campaign, side, units, request.POST, action)
    done = None
    if action:
        form = forms[action]
        done = run_card(request, form, lambda: minefield_card(action, form, side, request.user))
        if response := card_done(request, done, "tcs-minefields", pk, side_pk):
            return response
        if done:
            campaign.refresh_from_db()
            units = units_in_play(side)
            forms = _forms(campaign, side, units)
    context = {
        "campaign": campaign,
        "side": side,
        "can_act": can_act,
        "forms": forms,
        "markers": markers(campaign),
        "grants": sheet_grants(campaign, side),
        "recent": [(c, minefield_text(c)) for c in recent_attacks(side)],
        "charts": operation_charts(campaign),
        "done": done,
        "card": action,
    }
    return render_card_page(request, "tcs/minefields.html", context, action)


def odds_lines(attack) -> list[tuple[str, str, str]]:
    """Each result and its exact chance: the foot units' area result, then per vehicle
    unit the chance of each number of steps destroyed."""
    lines = []
    if attack.foot is not None and attack.foot.odds:
        for cell, p in attack.foot.odds.items():
            label = say(msg("on foot: %(r)s", r=result_words(cell)))
            lines.append((label, formats.number_format(round(float(p) * 100, 1), 1), f"{p}"))
    for unit, chances in attack.vehicle_odds.items():
        for k, p in chances.items():
            label = say(msg("%(u)s loses %(k)s step(s)", u=unit, k=k))
            lines.append((label, formats.number_format(round(float(p) * 100, 1), 1), f"{p}"))
    return lines


def shown_step(step) -> SimpleNamespace:
    """A step for the odds partial: yes/no in words, never a raw flag."""
    value = step.value
    if isinstance(value, bool):
        value = say(msg("yes") if value else msg("no"))
    elif value is not None and not isinstance(value, int | float | str):
        value = None
    return SimpleNamespace(rule=step.rule, text=step.text, value=value)


@require_POST
def tcs_minefield_preview(request, pk: int, side_pk: int):
    """The exact odds for the units chosen so far, before any die (htmx, live)."""
    campaign, viewer = load(request, pk)
    side = side_for(campaign, viewer, side_pk)
    units = units_in_play(side)
    form = EnterForm(units, markers(campaign), request.POST, prefix="enter")
    odds, problem, attack = [], "", None
    if form.is_valid():
        row = form.rows[form.cleaned_data["minefield"]]
        steps = {u.code: u.steps_left for u in units}
        try:
            attack = mines.preview(
                campaign, MinefieldMarker.from_dict(row), form.entry(form.moves()), steps
            )
        except ValidationError as exc:
            problem = " ".join(exc.messages)
        else:
            odds = odds_lines(attack)
            attack = SimpleNamespace(explanation=[shown_step(s) for s in attack.explanation])
    elif form.errors:
        problem = " ".join(str(e) for errors in form.errors.values() for e in errors)
    return render(
        request, "tcs/_fire_odds.html", {"odds": odds, "problem": problem, "result": attack}
    )
