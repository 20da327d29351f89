"""The Command Phase assistant [2.0]: one step per POST (htmx answers in place), each through
its service; a step's errors stay on its form with what was entered."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from campaigns.i18n import say
from campaigns.models import Campaign
from campaigns.models.tcs import CommandPhase, OpSheetRecord, TcsFormation
from campaigns.permissions import can_act_for_side
from campaigns.services import tcs as svc
from campaigns.tcs import forms as tf
from campaigns.views.common import form_errors, partial_request
from campaigns.views.tcs.common import flash, load, side_for
from rules.tcs import labels
from rules.tcs.opsheet import OpSheet
from rules.tcs.reserves import forced_commitment


def _phase_context(campaign, viewer, side, phase, forms=None):
    engine = svc.load_side(campaign, side) if phase else None
    prep, implemented, checks = [], [], []
    forms = forms or {}
    blockers = []
    if engine is not None:
        for record in engine.records:
            state = engine.sheets[record.pk]
            holders = [("", state)] if state.status.in_prep else []
            holders += [(a.id, a) for a in state.pending_additions]
            for addition_id, holder in holders:
                prefix = _attempt_prefix(record.pk, addition_id)
                attempt_form = forms.get(("attempt", prefix)) or tf.AttemptForm(
                    initial={"sheet": record.pk, "mode": "full"}, prefix=prefix
                )
                prep.append(
                    {
                        "record": record,
                        "state": holder,
                        "addition": addition_id,
                        "key": engine.settings.rating + holder.size,
                        "attempted": f"{record.pk}/{addition_id}"
                        in phase.steps.get("attempted", []),
                        "form": attempt_form,
                        "prelims": holder.preliminary_instructions
                        and holder.status.value == "unimplemented",
                    }
                )
            if state.status.value == "implemented":
                reserves = state.uncommitted_reserves
                free_alts = [
                    a
                    for a in state.alternatives
                    if not any(g.alternative == a for g in state.check_groups)
                ]
                implemented.append(
                    {
                        "record": record,
                        "state": state,
                        "success_form": forms.get(("success", record.pk))
                        or tf.PartialSuccessForm(
                            state.active_units,
                            initial={"sheet": record.pk},
                            prefix=f"s{record.pk}",
                        ),
                        "commit_form": forms.get(("commit", record.pk))
                        or (
                            tf.CommitForm(
                                reserves, initial={"sheet": record.pk}, prefix=f"c{record.pk}"
                            )
                            if reserves
                            else None
                        ),
                        "alt_form": forms.get(("alternative", record.pk))
                        or (
                            tf.AlternativeForm(
                                free_alts, initial={"sheet": record.pk}, prefix=f"l{record.pk}"
                            )
                            if free_alts
                            else None
                        ),
                        "forced": forced_commitment(state),
                    }
                )
                for group in state.check_groups:
                    if not group.passed:
                        key = f"{record.pk}/{group.id}"
                        checks.append(
                            {
                                "record": record,
                                "group": group,
                                "done": key in phase.steps.get("checked", []),
                                "form": forms.get(("check", key))
                                or tf.CheckForm(
                                    initial={"sheet": record.pk, "group": group.id},
                                    prefix=f"k{record.pk}{group.id.replace(':', '_')}",
                                ),
                            }
                        )
        blockers = svc.phase_blockers(phase, engine, campaign) if phase.status == "open" else []
    moraled = (
        [f for f in engine.formations.values() if f.morale != TcsFormation.Morale.NONE]
        if engine
        else []
    )
    prep_records = list({p["record"].pk: p["record"] for p in prep}.values())
    return {
        "campaign": campaign,
        "viewer": viewer,
        "side": side,
        "phase": phase,
        "turn": svc.current_turn(campaign),
        "engine": engine,
        "has_table": bool(engine and engine.settings.prep_table),
        "prep": prep,
        "implemented": implemented,
        "checks": checks,
        "blockers": blockers,
        "recovery_due": svc.recovery_due(campaign),
        "moraled": moraled,
        "wt_form": forms.get("ticks") or tf.WeightedTurnsForm(prep_records, prefix="wt"),
        "recovery_form": forms.get("recovery") or tf.RecoveryForm(moraled, prefix="rec"),
        "can_act": can_act_for_side(viewer, side) and campaign.status == Campaign.Status.ACTIVE,
    }


def tcs_command(request, pk: int, side_pk: int):
    """GET shows this turn's Command Phase; POST runs one step (htmx: the phase partial)."""
    campaign, viewer = load(request, pk)
    side = side_for(campaign, viewer, side_pk)
    turn = svc.current_turn(campaign)
    phase = CommandPhase.objects.filter(campaign=campaign, side=side, turn=turn.number).first()
    forms: dict = {}
    status = 200
    if request.method == "POST":
        if not (request.user.is_authenticated and can_act_for_side(viewer, side)):
            raise Http404
        action = request.POST.get("action", "")
        try:
            if action == "open":
                phase = svc.tcs_phase_open(side=side, actor=request.user)
            elif phase is None:
                raise ValidationError(_("Open this turn's Command Phase first."))
            else:
                forms = _phase_action(request, action, phase)
                phase.refresh_from_db()
        except ValidationError as exc:
            flash(request, exc)
            status = 400
        if forms:
            status = 400
        if not partial_request(request) and status == 200:
            return redirect("tcs-command", pk=campaign.pk, side_pk=side.pk)
    context = _phase_context(campaign, viewer, side, phase, forms)
    if partial_request(request):  # htmx swaps 2xx answers only: errors are shown in the partial
        return render(request, "tcs/command.html#phase", context)
    return render(request, "tcs/command.html", context, status=status)


def _phase_action(request, action: str, phase: CommandPhase) -> dict:
    """Run one step; returns {form key: bound form} when a form has errors."""
    post, user = request.POST, request.user
    sheets = {s.pk: s for s in OpSheetRecord.objects.filter(side_id=phase.side_id)}

    def sheet_of(form):
        sheet = sheets.get(form.cleaned_data["sheet"])
        if sheet is None:
            raise ValidationError({"sheet": _("Choose one of this side's op sheets.")})
        return sheet

    def run(key, form, call) -> dict:
        if not form.is_valid():
            return {key: form}
        try:
            text = call(form)
        except ValidationError as exc:
            form_errors(form, exc)
            return {key: form}
        if text:
            messages.success(request, text)
        return {}

    if action == "ticks":
        prep = [s for s in sheets.values() if s.status in ("unimplemented", "prelims_active")]
        prep += [
            s for s in sheets.values() if s.status == "implemented" and s.state.get("additions")
        ]
        form = tf.WeightedTurnsForm(prep, post, prefix="wt")
        return run(
            "ticks",
            form,
            lambda f: _ticks_text(
                svc.tcs_phase_weighted_turns(
                    phase=phase, actor=user, fired_sheets=[int(x) for x in f.cleaned_data["fired"]]
                )
            ),
        )
    if action == "attempt":
        pk = _int(post.get("sheet_pk"))
        addition_id = post.get("addition_id", "")
        if addition_id and not addition_id.isalnum():
            raise ValidationError(_("Choose one of this side's op sheets."))
        prefix = _attempt_prefix(pk, addition_id)
        form = tf.AttemptForm(post, prefix=prefix)

        def attempt(f):
            sheet = sheet_of(f)
            row = sheet.sheet_type
            if addition_id:
                found = [a for a in sheet.state.get("additions", []) if a["id"] == addition_id]
                row = found[0]["row"] if found else row
            result = svc.tcs_phase_attempt(
                phase=phase,
                sheet=sheet,
                actor=user,
                mode=f.cleaned_data["mode"],
                roll=f.cleaned_data["roll_value"],
                thresholds=f.thresholds(row),
                addition_id=addition_id or None,
            )
            text = _("%(s)s: rolled %(r)s — %(o)s.") % {
                "s": f"{sheet.code}/{addition_id}" if addition_id else sheet.code,
                "r": result["roll"] if result["roll"] is not None else "—",
                "o": say(labels.label(labels.PREP_OUTCOMES, result["outcome"])),
            }
            if result["outcome"] == "implemented" and sheet.sheet_type == "prepared_defense":
                text += " " + _(
                    "Record on the sheet's page which units were in Fire mode: they dig in [6.16.a]."
                )
            return text

        return run(("attempt", prefix), form, attempt)
    if action == "success":
        pk = _int(post.get("sheet_pk"))
        sheet = sheets.get(pk)
        units = OpSheet.from_dict(sheet.state).active_units if sheet else []
        form = tf.PartialSuccessForm(units, post, prefix=f"s{pk}")
        return run(
            ("success", pk),
            form,
            lambda f: (
                svc.tcs_sheet_declare_success(
                    phase=phase, sheet=sheet_of(f), actor=user, units=f.cleaned_data["units"]
                )
                and (
                    _("Success declared for %(u)s [6.13.a].")
                    % {"u": ", ".join(f.cleaned_data["units"])}
                    if f.cleaned_data["units"]
                    else _("Success declared.")
                )
            ),
        )
    if action == "commit":
        pk = _int(post.get("sheet_pk"))
        sheet = sheets.get(pk)
        reserves = OpSheet.from_dict(sheet.state).uncommitted_reserves if sheet else []
        form = tf.CommitForm(reserves, post, prefix=f"c{pk}")
        return run(
            ("commit", pk),
            form,
            lambda f: (
                svc.tcs_phase_commit_reserves(
                    phase=phase,
                    sheet=sheet_of(f),
                    actor=user,
                    units=f.cleaned_data["units"],
                    order=f.cleaned_data["order"],
                )
                and _("Reserves committed: roll their check (step 4).")
            ),
        )
    if action == "alternative":
        pk = _int(post.get("sheet_pk"))
        sheet = sheets.get(pk)
        names = list((sheet.state.get("alternatives") or {}).keys()) if sheet else []
        form = tf.AlternativeForm(names, post, prefix=f"l{pk}")
        return run(
            ("alternative", pk),
            form,
            lambda f: (
                svc.tcs_phase_choose_alternative(
                    phase=phase,
                    sheet=sheet_of(f),
                    actor=user,
                    alternative=f.cleaned_data["alternative"],
                )
                and _("Alternative chosen: roll its check (step 4).")
            ),
        )
    if action == "check":
        prefix = post.get("prefix", "")
        if not prefix.startswith("k"):
            raise ValidationError(_("Choose a check group."))
        form = tf.CheckForm(post, prefix=prefix)

        def check(f):
            passed = svc.tcs_phase_check_roll(
                phase=phase,
                sheet=sheet_of(f),
                actor=user,
                group_id=f.cleaned_data["group"],
                roll=f.cleaned_data["roll_value"],
            )
            return _("Check passed.") if passed else _("Check failed; roll again next turn.")

        key = ("check", f"{post.get(prefix + '-sheet')}/{post.get(prefix + '-group')}")
        return run(key, form, check)
    if action == "recovery":
        moraled = list(
            TcsFormation.objects.filter(side_id=phase.side_id).exclude(
                morale=TcsFormation.Morale.NONE
            )
        )
        form = tf.RecoveryForm(moraled, post, prefix="rec")
        return run(
            "recovery",
            form,
            lambda f: (
                _("Morale recovery rolled.")
                + " "
                + (
                    ", ".join(
                        f"{k}: {a}→{b}"
                        for k, (a, b) in svc.tcs_phase_recovery(
                            phase=phase, actor=user, rolls=f.cleaned_data["rolls"]
                        ).items()
                    )
                    or _("No value changed.")
                )
            ),
        )
    if action == "complete":
        svc.tcs_phase_complete(phase=phase, actor=user)
        messages.success(request, _("Command Phase completed."))
        return {}
    raise ValidationError(_("Unknown step."))


def _int(text) -> int:
    text = (text or "").strip()
    return int(text) if text.isdecimal() else 0


def _attempt_prefix(pk: int, addition_id: str) -> str:
    return f"a{pk}x{addition_id}" if addition_id else f"a{pk}"


def _ticks_text(added: dict) -> str:
    if not added:
        return _("No op sheet in Command Prep.")
    return _("Weighted turns added: %(t)s.") % {
        "t": ", ".join(f"{k} +{v}" for k, v in added.items())
    }
