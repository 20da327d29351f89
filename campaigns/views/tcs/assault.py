"""One side's assaults and overruns [22.0, 23.0] (phone first): whose move and what is asked at
the top of each running assault, one form for whatever the current step asks of this side,
and the declaration of a new one with the side's own stack. Only the side and a neutral game
master see the page; the other side's losses, checks and totals never appear on it."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from campaigns.idempotency import idempotent_form
from campaigns.selectors.tcs_combat import units_in_play
from campaigns.services.tcs import assault as sa
from campaigns.tcs.form_actions import assault_answer, assault_declare
from campaigns.tcs.forms.assault import AssaultAnswerForm, AssaultDeclareForm
from campaigns.views.tcs.common import card_done, card_request, render_card_page, run_card


def _cards(side, units, can_act, data=None, bound=None):
    cards = []
    for combat in sa.running(side):
        seen = sa.describe(combat, sa.role_of(combat, side))
        form = None
        if can_act and seen["my_move"]:
            form = AssaultAnswerForm(
                units,
                seen["form"],
                data if bound == combat.pk else None,
                prefix=f"a{combat.pk}",
                initial={"stage": seen["stage"]},
            )
        cards.append((combat, seen, form))
    return cards


@idempotent_form
def tcs_assault(request, pk: int, side_pk: int):
    campaign, _viewer, side, can_act, action = card_request(
        request, pk, side_pk, ("declare", "answer")
    )
    units = units_in_play(side)
    bound = None
    if action == "answer":
        bound = next(
            (c.pk for c in sa.running(side) if str(c.pk) == request.POST.get("combat", "")),
            None,
        )
        if bound is None:
            messages.error(request, _("This assault is over: nothing was changed."))
            return redirect("tcs-assault", pk, side_pk)
    declare_form = AssaultDeclareForm(
        units, request.POST if action == "declare" else None, prefix="declare"
    )
    cards = _cards(side, units, can_act, request.POST, bound)
    done = None
    if action:
        if action == "declare":
            form, combat = declare_form, None
        else:
            combat, _seen, form = next(c for c in cards if c[0].pk == bound)
        if form is None:
            messages.error(request, _("This step was already answered: nothing was changed."))
            return redirect("tcs-assault", pk, side_pk)
        if action == "declare":
            ran = run_card(request, form, lambda: assault_declare(form, side, request.user))
            done = ran[0] if ran else None
        else:
            done = run_card(request, form, lambda: assault_answer(form, combat, side, request.user))
        if response := card_done(request, done, "tcs-assault", pk, side_pk):
            return response
        if done:
            units = units_in_play(side)
            declare_form = AssaultDeclareForm(units, prefix="declare")
            cards = _cards(side, units, can_act)
    context = {
        "campaign": campaign,
        "side": side,
        "can_act": can_act,
        "cards": cards,
        "declare": declare_form,
        "done": done,
    }
    return render_card_page(request, "tcs/assault.html", context, action)
