"""A side's page: Command Prep settings, order of battle by form or CSV, step losses, morale
corrections and steps given back. Only that side (and a neutral game master) sees it."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from campaigns.i18n import say
from campaigns.models import Side
from campaigns.models.tcs import TcsFormation
from campaigns.permissions import can_act_for_side
from campaigns.selectors.tcs import decisions_awaited, tcs_operation
from campaigns.services import tcs as svc
from campaigns.tcs import forms as tf
from campaigns.tcs.state import losses_message, restore_message
from campaigns.views.common import form_errors
from campaigns.views.tcs.common import load, side_for


def _side_forms(side_view, data=None, files=None, bound: str = ""):
    formations = [f.formation for f in side_view.formations]
    units = [u for f in side_view.formations for u in f.units] + side_view.loose_units
    battalions = [f for f in formations if f.morale == TcsFormation.Morale.BATTALION]
    moraled = [f for f in formations if f.morale != TcsFormation.Morale.NONE]
    settings = side_view.settings

    def b(name):
        return (data, files) if bound == name else (None, None)

    initial = {
        "rating": settings.rating if settings else 3,
        "prep_table": settings.prep_table if settings else None,
    }
    return {
        "settings": tf.SideSettingsForm(b("settings")[0], initial=initial, prefix="settings"),
        "formation": tf.FormationForm(b("formation")[0], prefix="formation"),
        "unit": tf.UnitForm(formations, b("unit")[0], prefix="unit"),
        "import": tf.CsvImportForm(*b("import"), prefix="import"),
        "loss": tf.LossForm(units, battalions, b("loss")[0], prefix="loss"),
        "correct": tf.CorrectionForm(moraled, b("correct")[0], prefix="correct"),
        "restore": tf.RestoreForm(units, b("restore")[0], prefix="restore"),
    }


def tcs_side_view(request, pk: int, side_pk: int):
    campaign, viewer = load(request, pk)
    side = side_for(campaign, viewer, side_pk)
    action = request.POST.get("action", "") if request.method == "POST" else ""
    if action and not (can_act_for_side(viewer, side) and request.user.is_authenticated):
        raise Http404
    op = tcs_operation(campaign, viewer)
    side_view = next(s for s in op.sides if s.side.pk == side.pk)
    forms = _side_forms(side_view, request.POST, request.FILES, action)
    if action in forms:
        form = forms[action]
        if form.is_valid():
            try:
                done = _side_action(request, action, form, side)
            except ValidationError as exc:
                form_errors(form, exc)
            else:
                messages.success(request, done)
                return redirect("tcs-side", pk=campaign.pk, side_pk=side.pk)
    status = 400 if action in forms and forms[action].errors else 200
    return render(
        request,
        "tcs/side.html",
        {
            "campaign": campaign,
            "viewer": viewer,
            "op": op,
            "sv": side_view,
            "forms": forms,
            "awaited": decisions_awaited(side),
            "csv_columns": ",".join(svc.CSV_COLUMNS),
        },
        status=status,
    )


def _side_action(request, action: str, form, side: Side) -> str:
    d, user = form.cleaned_data, request.user
    if action == "settings":
        svc.tcs_side_update(side=side, actor=user, rating=d["rating"], table=d["prep_table"])
        return _("Command Prep settings saved.")
    if action == "formation":
        svc.tcs_formation_add(
            side=side,
            actor=user,
            code=d["code"],
            name=d["name"],
            morale=d["morale"],
            is_battalion=d["is_battalion"],
            track=d["track"],
            start_value=d["start_value"] or 0,
        )
        return _("Formation added.")
    if action == "unit":
        svc.tcs_unit_add(
            side=side,
            actor=user,
            code=d["code"],
            formation=form.formations.get(d["formation"]),
            category=d["category"],
            steps=d["steps"],
            morale=d["morale"],
        )
        return _("Unit added.")
    if action == "import":
        f, u = svc.tcs_oob_import(side=side, actor=user, text=d["text"])
        return say(svc.imported_words(f, u))
    if action == "loss":
        outcome = svc.tcs_losses_record(
            unit=form.units[d["unit"]],
            actor=user,
            steps=d["steps"],
            combat=d["combat"],
            nearest=d["nearest"] or None,
            rolls=d["rolls_list"],
        )
        text = losses_message(outcome)
        return text
    if action == "correct":
        svc.tcs_morale_correct(
            formation=form.formations[d["formation"]],
            actor=user,
            value=d["value"],
            reason=d["reason"],
        )
        return _("Morale corrected; the correction is in the log.")
    if action == "restore":
        unit = svc.tcs_unit_restore(
            unit=form.units[d["unit"]], actor=user, steps=d["steps"], reason=d["reason"]
        )
        return restore_message(unit)
    raise Http404
