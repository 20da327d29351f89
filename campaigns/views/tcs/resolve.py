"""The resolve panel of one side in the turn (phone first): fire [11, 12, 16] with the column
and odds shown live, the fire results to apply to its own stacks with the morale check they
force [17.0.b], morale checks [17.2], recovery [17.7] and a unit's mode and marker.

Each card posts on its own (htmx swaps the card, the result where the button was); without
JavaScript the page reloads with the result on top. Only the side and a neutral game master
see the page."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils import formats
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaigns.i18n import say
from campaigns.idempotency import idempotent_form
from campaigns.selectors.tcs_charts import operation_charts
from campaigns.selectors.tcs_combat import recent, to_apply, units_in_play
from campaigns.services import tcs as svc
from campaigns.services.tcs.fire import preview
from campaigns.tcs import forms as tf
from campaigns.tcs.combat_words import result_text
from campaigns.views.tcs.common import (
    card_done,
    card_request,
    load,
    render_card_page,
    run_card,
    side_for,
)
from rules.tcs.fire import result_words

CARDS = ("fire", "apply", "check", "recover", "unit", "arrive")


def _forms(units, data=None, bound=""):
    def d(name):
        return data if bound == name else None

    return {
        "fire": tf.FireForm(d("fire"), prefix="fire"),
        "check": tf.MoraleCheckForm(units, d("check"), prefix="check"),
        "recover": tf.RecoverForm(units, d("recover"), prefix="recover"),
        "unit": tf.UnitStateForm(units, d("unit"), prefix="unit"),
        "arrive": tf.ArriveForm(units, d("arrive"), prefix="arrive"),
    }


def _apply_forms(units, pending, data=None, bound_pk=None):
    return [
        (
            c,
            tf.FireApplyForm(
                units,
                data if bound_pk == c.pk else None,
                prefix=f"apply-{c.pk}",
                artillery=c.kind == "artillery",
            ),
        )
        for c in pending
    ]


def _run(action: str, form, side, user, combat=None):
    """Call the card's service; returns (done text, the record or unit)."""
    d = form.cleaned_data
    if action == "fire":
        c = svc.tcs_fire_resolve(side=side, actor=user, order=d["order"], rolls=d["rolls_list"])
        return _("Fire resolved: %(r)s") % {"r": result_text(c)}, c
    if action == "check":
        c = svc.tcs_morale_check(
            side=side, actor=user, units=form.chosen(), check=form.check(d["cause"])
        )
        return _("Morale check: %(r)s") % {"r": c.result["result_words"]}, c
    if action == "recover":
        c = svc.tcs_recover(
            side=side,
            actor=user,
            units=form.chosen(),
            in_artillery_zone=d.get("in_artillery_zone", False),
        )
        return _("The stack recovers one level [17.7]."), c
    if action == "apply":
        c = svc.tcs_fire_apply(
            combat=combat,
            actor=user,
            losses=form.losses(),
            units=form.chosen(),
            check=form.check("fire"),
            rolls=d.get("vehicle_rolls_list"),
        )
        check = c.applied.get("check")
        text = _("Fire result applied.")
        if check:
            text = _("Fire result applied; morale check: %(r)s") % {"r": check["result_words"]}
        return text, c
    if action == "arrive":
        entered = svc.tcs_reinforcements_enter(
            side=side, actor=user, units=[u.code for u in form.chosen()]
        )
        return _("Reinforcements enter: %(u)s [27.2.a].") % {"u": ", ".join(entered)}, None
    unit = svc.tcs_unit_state(
        unit=form.unit_map[d["unit"]],
        actor=user,
        mode=d.get("mode") or None,
        morale=d.get("morale"),
        morale_state=d.get("morale_state") or None,
        reason=d.get("reason", ""),
    )
    return _("%(u)s updated.") % {"u": unit.code}, unit


@idempotent_form
def tcs_resolve(request, pk: int, side_pk: int):
    campaign, viewer, side, can_act, action = card_request(request, pk, side_pk, CARDS)
    units = units_in_play(side)
    pending = to_apply(side)
    apply_pk = None
    if action == "apply":
        apply_pk = next(
            (c.pk for c in pending if str(c.pk) == request.POST.get("combat", "")), None
        )
        if apply_pk is None:
            messages.error(request, _("This fire result was already applied."))
            return redirect("tcs-resolve", pk, side_pk)
    forms = _forms(units, request.POST, action)
    applies = _apply_forms(units, pending, request.POST, apply_pk)
    done, card = None, action
    if action:
        form = forms.get(action) or next(f for c, f in applies if c.pk == apply_pk)
        combat = next((c for c in pending if c.pk == apply_pk), None)
        ran = run_card(request, form, lambda: _run(action, form, side, request.user, combat))
        done = ran[0] if ran else None
        if response := card_done(request, done, "tcs-resolve", pk, side_pk):
            return response
        if done:  # fresh forms, the result shown where the button was
            units = units_in_play(side)
            pending = to_apply(side)
            forms = _forms(units)
            applies = _apply_forms(units, pending)
    context = {
        "campaign": campaign,
        "side": side,
        "can_act": can_act,
        "forms": forms,
        "applies": applies,
        "units": units,
        "recent": recent(campaign, viewer, side),
        "charts": operation_charts(campaign),
        "done": done,
        "card": card,
    }
    return render_card_page(request, "tcs/resolve.html", context, action)


@require_POST
def tcs_fire_preview(request, pk: int, side_pk: int):
    """The column, its shifts and the exact odds for the fire typed so far (htmx, live; a
    POST because typed lines hold line breaks)."""
    campaign, viewer = load(request, pk)
    side_for(campaign, viewer, side_pk)
    form = tf.FireForm(request.POST, prefix="fire")
    odds, problem, shown = [], "", None
    if form.is_valid() and form.cleaned_data["kind"] != "at":
        try:
            result = preview(form.cleaned_data["order"], campaign)
        except ValidationError as exc:
            problem = " ".join(exc.messages)
        else:
            shown = result
            odds = [
                (
                    say(result_words(cell)),
                    formats.number_format(round(float(p) * 100, 1), 1),
                    f"{p}",
                )
                for cell, p in result.odds.items()
            ]
    elif form.errors:
        problem = " ".join(str(e) for errors in form.errors.values() for e in errors)
    return render(
        request, "tcs/_fire_odds.html", {"odds": odds, "problem": problem, "result": shown}
    )
