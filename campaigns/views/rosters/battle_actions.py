"""Battle actions: one table maps each action to its form and service; one view runs any of
them (and previews the odds of a shot, assault or area attack)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaigns.ids import as_id
from campaigns.permissions import is_organiser, player_side
from campaigns.rosters import forms as rf
from campaigns.rosters.engine import PARABELLUM
from campaigns.services import skirmish as sk
from campaigns.views.common import form_errors, partial_request
from campaigns.views.rosters.battle_pages import (
    battle_for,
    battle_update,
    skirmish_detail_view,
    soldier_choices,
    unit_labels,
)


def _dice(data):
    return sk.dice_from(data["dice_mode"], data.get("dice") or "")


def engine_params(form) -> dict:
    return {k: form.cleaned_data.get(k) for k in form.ENGINE}


def _plain(cls):
    return lambda request, battle, post: cls(post)


def _with_sides(cls):
    return lambda request, battle, post: cls(post, sides=list(battle.sides.all()))


def _with_soldiers(cls):
    def build(request, battle, post):
        form = cls(post)
        form.set_soldiers(soldier_choices(list(battle.sides.all())))
        return form

    return build


def _with_units(cls):
    def build(request, battle, post):
        me = player_side(request.user, battle)
        return cls(post, units=unit_labels(me.snapshot if me else {}))

    return build


def _tie_form(request, battle, post):
    pending = (battle.scenario or {}).get("pending") or {"options": []}
    return rf.TieForm(post, options=[tuple(o) for o in pending["options"]])


def _correction_id(post) -> dict:
    correction_id = as_id(post.get("correction", ""))
    if correction_id is None:
        raise ValidationError(_("That proposal is no longer pending: reload the page."))
    return {"correction_id": correction_id}


@dataclass(frozen=True)
class Action:
    """A battle action: the service it calls and how the form's data become its arguments.

    `form` builds the bound form (None: the action has none); `fields` are the cleaned fields
    passed on by name (None: all of them); `dice` adds the dice chosen on the form; `extra`
    adds arguments computed from the form (or from the post, without a form). The service's
    errors go next to the form's fields, or above the actions when `field_errors` is off."""

    service: Callable[..., Any]
    form: Callable[..., Any] | None = None
    fields: tuple[str, ...] | None = None
    dice: bool = False
    extra: Callable[[Any], dict] | None = None
    field_errors: bool = True

    def arguments(self, form, post) -> dict:
        if form is None:
            return self.extra(post) if self.extra else {}
        d = form.cleaned_data
        kwargs = dict(d) if self.fields is None else {k: d[k] for k in self.fields}
        if self.dice:
            kwargs["dice"] = _dice(d)
        if self.extra:
            kwargs.update(self.extra(form))
        return kwargs


ACTIONS: dict[str, Action] = {
    "join": Action(
        sk.skirmish_join,
        lambda request, battle, post: rf.JoinForm(post, user=request.user, system=battle.system),
        fields=("roster",),
    ),
    "orders": Action(sk.skirmish_orders_submit, _plain(rf.OrdersForm)),
    "shoot": Action(
        sk.skirmish_shoot,
        _with_soldiers(rf.ShotForm),
        fields=("turn", "shooter", "target", "hit_the_dirt"),
        dice=True,
        extra=engine_params,
    ),
    "assault": Action(
        sk.skirmish_assault,
        _with_soldiers(rf.AssaultForm),
        fields=("turn", "attacker", "defender"),
        dice=True,
        extra=engine_params,
    ),
    "grenade": Action(
        sk.skirmish_grenade,
        _with_soldiers(rf.GrenadeForm),
        fields=(
            "turn",
            "thrower",
            "launcher",
            "distance_cm",
            "moved",
            "los_to_marker",
            "targets",
            "hit_the_dirt",
        ),
        dice=True,
    ),
    "support": Action(
        sk.skirmish_support,
        _with_soldiers(rf.SupportForm),
        fields=("turn", "kind", "targets", "hit_the_dirt", "radio_operator"),
        dice=True,
        extra=lambda form: {"po": form.cleaned_data["po"] or 0},
    ),
    "tactical": Action(
        sk.skirmish_tactical,
        _with_sides(rf.TacticalForm),
        fields=("turn",),
        extra=lambda form: {"blue": (form.cleaned_data["blue_0"], form.cleaned_data["blue_1"])},
    ),
    "projector": Action(
        sk.skirmish_projector,
        _with_soldiers(rf.ProjectorForm),
        fields=("turn", "firer", "distance_cm", "moved", "hit_the_dirt"),
        dice=True,
        extra=lambda form: {"targets": form.targets()},
    ),
    "bombardment": Action(
        sk.skirmish_bombardment,
        _with_soldiers(rf.BombardmentForm),
        fields=("targets", "hit_the_dirt"),
        dice=True,
    ),
    "correct": Action(
        sk.skirmish_result_correct,
        _with_sides(rf.CorrectionForm),
        fields=("reason",),
        extra=lambda form: {"winner_index": form.winner_index()},
    ),
    "agree": Action(sk.skirmish_result_agree, extra=_correction_id),
    "bog": Action(
        sk.m36_bog_check,
        _with_units(rf.BogForm),
        fields=("ground", "value"),
        extra=lambda form: {"unit": int(form.cleaned_data["unit"])},
    ),
    "casualty": Action(sk.skirmish_casualty, _with_soldiers(rf.CasualtyForm)),
    "turn": Action(
        sk.skirmish_turn_record,
        lambda request, battle, post: rf.TurnForm(
            post, soldiers=soldier_choices(list(battle.sides.all()))
        ),
        fields=("turn",),
        extra=lambda form: {
            "po": [form.cleaned_data["po_0"], form.cleaned_data["po_1"]],
            "models": form.models(),
        },
    ),
    "finish": Action(sk.skirmish_finish),
    "apply": Action(sk.skirmish_apply_house_rules, _plain(rf.DiceForm), fields=(), dice=True),
    "scenario": Action(
        sk.m36_scenario_create,
        _plain(rf.ScenarioForm),
        fields=("terrain", "user_table"),
        dice=True,
    ),
    "tie": Action(
        sk.m36_scenario_tie,
        _tie_form,
        fields=(),
        extra=lambda form: {"order": form.cleaned_data["order"].split("|")},
        field_errors=False,
    ),
    "plan": Action(
        sk.m36_scenario_plan,
        _plain(rf.PlanForm),
        fields=("sector", "last_piece"),
        extra=lambda form: {"counts": form.counts()},
    ),
    "objectives": Action(sk.m36_objectives),
    "weather": Action(sk.m36_weather, _plain(rf.WeatherForm), fields=("season",), dice=True),
    "weather_change": Action(
        sk.m36_weather_change, _plain(rf.WeatherChangeForm), fields=("turn",), dice=True
    ),
    "construction": Action(sk.m36_construction_start, _plain(rf.ConstructionForm)),
    "fortify": Action(sk.m36_fortification_buy, _plain(rf.FortificationForm)),
    "morale": Action(
        sk.m36_battalion_morale,
        _with_units(rf.MoraleForm),
        fields=(),
        extra=lambda form: {"states": form.states()},
    ),
    "performance": Action(sk.m36_performance, _plain(rf.PerformanceForm)),
    "m36finish": Action(
        sk.m36_finish,
        _with_sides(rf.M36FinishForm),
        fields=(),
        extra=lambda form: {
            "winner_index": None
            if form.cleaned_data["winner"] == "draw"
            else int(form.cleaned_data["winner"])
        },
    ),
    "conditions": Action(
        sk.m36_post_battle,
        _with_units(rf.ConditionForm),
        fields=(),
        extra=lambda form: {"conditions": form.conditions()},
    ),
}
ODDS = ("shoot", "assault", "grenade", "projector", "support")
# the 1936 procedures, also run by the REST API (campaigns/api/rosters.py) from this table
M1936_ACTIONS = (
    "scenario",
    "tie",
    "plan",
    "objectives",
    "weather",
    "weather_change",
    "construction",
    "fortify",
    "morale",
    "performance",
    "bog",
    "m36finish",
    "conditions",
)


@login_required
@require_POST
def skirmish_action(request, pk: int, name: str):
    """Every battle action: the service runs it, or the form comes back with its errors.
    An htmx post gets the actions, state and log panels back in place; a plain post is
    redirected (or the page is shown again with the errors)."""
    battle = battle_for(request, pk)
    if name not in ACTIONS:
        raise Http404
    if player_side(request.user, battle) is None and not (
        name in ("correct", "agree") and is_organiser(request.user, battle)
    ):
        raise Http404
    act = ACTIONS[name]
    form = act.form(request, battle, request.POST) if act.form else None
    errors: list[str] = []
    try:
        if form is None or form.is_valid():
            act.service(battle=battle, actor=request.user, **act.arguments(form, request.POST))
    except ValidationError as exc:
        if form is None or not act.field_errors:
            form, errors = None, exc.messages
        else:
            form_errors(form, exc)
    failed = form is not None and bool(form.errors)
    if partial_request(request):
        return battle_update(
            request,
            pk,
            name=name,
            bound={name: form} if failed else None,
            errors=errors,
            done="" if failed or errors else _("Done — see the battle log."),
        )
    if errors:
        for m in errors:
            messages.error(request, m)
        return redirect(battle)
    if failed:
        return skirmish_detail_view(request, pk, bound={name: form}, status=400)
    messages.success(request, _("Done — see the battle log."))
    return redirect(battle)


@login_required
@require_POST
def skirmish_odds(request, pk: int, name: str):
    """Exact odds of a shot, assault or area attack before rolling (htmx partial)."""
    battle = battle_for(request, pk)
    if name not in ODDS or battle.system != PARABELLUM or player_side(request.user, battle) is None:
        raise Http404
    form = ACTIONS[name].form(request, battle, request.POST)
    preview, error = None, ""
    # odds never need the dice fields
    form.fields["dice_mode"].required = False
    if form.is_valid():
        d = form.cleaned_data
        try:
            if name == "shoot":
                preview = sk.shot_preview(
                    battle=battle, shooter=d["shooter"], target=d["target"], **engine_params(form)
                )
            elif name == "assault":
                preview = sk.assault_preview(
                    battle=battle,
                    attacker=d["attacker"],
                    defender=d["defender"],
                    **engine_params(form),
                )
            elif name == "grenade":
                kind = "grenade_launcher" if d["launcher"] else "grenade"
                preview = sk.area_preview(battle=battle, kind=kind, targets=d["targets"])
            elif name == "projector":
                preview = sk.projector_preview(
                    battle=battle,
                    distance_cm=d["distance_cm"],
                    moved=d["moved"],
                    targets=form.targets(),
                )
            else:
                preview = sk.area_preview(battle=battle, kind=d["kind"], targets=d["targets"])
        except ValidationError as exc:
            error = " ".join(exc.messages)
    else:
        error = " ".join(
            f"{form.fields[k].label if k in form.fields else ''}: {' '.join(v)}"
            for k, v in form.errors.items()
        )
    return render(
        request,
        "rosters/battle.html#odds",
        {"preview": preview, "error": error},
        status=400 if error else 200,
    )
