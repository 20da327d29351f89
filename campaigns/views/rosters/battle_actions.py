"""Battle actions: one table maps each action to its form and service; one view runs any of
them (and previews the odds of a shot, assault or area attack)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaigns.permissions import is_organiser, player_side
from campaigns.rosters import forms as rf
from campaigns.rosters.engine import M1936, PARABELLUM
from campaigns.services import skirmish as sk
from campaigns.views.common import form_errors, partial_request
from campaigns.views.rosters.action_table import (
    Action,
    builder,
    correction_id,
    engine_params,
    plain,
    tie_form,
    with_battle,
    with_sides,
    with_soldiers,
    with_units,
)
from campaigns.views.rosters.actions_m36 import M36_PLAY_ACTIONS, M36_PREVIEWS
from campaigns.views.rosters.actions_pb import PB_PLAY_ACTIONS
from campaigns.views.rosters.battle_pages import (
    battle_for,
    battle_update,
    skirmish_detail_view,
    soldier_choices,
)

ACTIONS: dict[str, Action] = {
    "join": Action(
        sk.skirmish_join,
        builder(
            rf.JoinForm,
            lambda request, battle, post: rf.JoinForm(
                post, user=request.user, system=battle.system
            ),
        ),
        fields=("roster",),
    ),
    "orders": Action(sk.skirmish_orders_submit, plain(rf.OrdersForm)),
    "shoot": Action(
        sk.skirmish_shoot,
        with_soldiers(rf.ShotForm),
        fields=("turn", "shooter", "target", "hit_the_dirt"),
        dice=True,
        extra=engine_params,
    ),
    "assault": Action(
        sk.skirmish_assault,
        with_soldiers(rf.AssaultForm),
        fields=("turn", "attacker", "defender"),
        dice=True,
        extra=engine_params,
    ),
    "grenade": Action(
        sk.skirmish_grenade,
        with_soldiers(rf.GrenadeForm),
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
        with_soldiers(rf.SupportForm),
        fields=("turn", "kind", "targets", "hit_the_dirt", "radio_operator"),
        dice=True,
        extra=lambda form: {"po": form.cleaned_data["po"] or 0},
    ),
    "tactical": Action(
        sk.skirmish_tactical,
        with_sides(rf.TacticalForm),
        fields=("turn",),
        extra=lambda form: {"blue": (form.cleaned_data["blue_0"], form.cleaned_data["blue_1"])},
    ),
    "projector": Action(
        sk.skirmish_projector,
        with_soldiers(rf.ProjectorForm),
        fields=("turn", "firer", "distance_cm", "moved", "hit_the_dirt"),
        dice=True,
        extra=lambda form: {"targets": form.targets()},
    ),
    "bombardment": Action(
        sk.skirmish_bombardment,
        with_soldiers(rf.BombardmentForm),
        fields=("targets", "hit_the_dirt"),
        dice=True,
    ),
    "correct": Action(
        sk.skirmish_result_correct,
        with_sides(rf.CorrectionForm),
        fields=("reason",),
        extra=lambda form: {"winner_index": form.winner_index()},
    ),
    "agree": Action(sk.skirmish_result_agree, extra=correction_id),
    "readings": Action(
        sk.skirmish_readings_set,
        with_battle(rf.ReadingsForm),
        fields=(),
        extra=lambda form: {"readings": form.values()},
    ),
    "undo": Action(sk.skirmish_undo, plain(rf.UndoForm), fields=(), field_errors=False),
    "bog": Action(
        sk.m36_bog_check,
        with_units(rf.BogForm),
        fields=("ground", "value"),
        extra=lambda form: {"unit": int(form.cleaned_data["unit"])},
    ),
    "casualty": Action(sk.skirmish_casualty, with_soldiers(rf.CasualtyForm)),
    "turn": Action(
        sk.skirmish_turn_record,
        builder(
            rf.TurnForm,
            lambda request, battle, post: rf.TurnForm(
                post, soldiers=soldier_choices(list(battle.sides.all()))
            ),
        ),
        fields=("turn",),
        extra=lambda form: {
            "po": [form.cleaned_data["po_0"], form.cleaned_data["po_1"]],
            "models": form.models(),
        },
    ),
    "finish": Action(sk.skirmish_finish),
    "apply": Action(sk.skirmish_apply_house_rules, plain(rf.DiceForm), fields=(), dice=True),
    "scenario": Action(
        sk.m36_scenario_create,
        plain(rf.ScenarioForm),
        fields=("terrain", "user_table"),
        dice=True,
    ),
    "tie": Action(
        sk.m36_scenario_tie,
        tie_form,
        fields=(),
        extra=lambda form: {"order": form.cleaned_data["order"].split("|")},
        field_errors=False,
    ),
    "plan": Action(
        sk.m36_scenario_plan,
        plain(rf.PlanForm),
        fields=("sector", "last_piece"),
        extra=lambda form: {"counts": form.counts()},
    ),
    "objectives": Action(sk.m36_objectives),
    "weather": Action(sk.m36_weather, plain(rf.WeatherForm), fields=("season",), dice=True),
    "weather_change": Action(
        sk.m36_weather_change, plain(rf.WeatherChangeForm), fields=("turn",), dice=True
    ),
    "construction": Action(sk.m36_construction_start, plain(rf.ConstructionForm)),
    "fortify": Action(sk.m36_fortification_buy, plain(rf.FortificationForm)),
    "morale": Action(
        sk.m36_battalion_morale,
        with_units(rf.MoraleForm),
        fields=(),
        extra=lambda form: {"states": form.states()},
    ),
    "performance": Action(sk.m36_performance, plain(rf.PerformanceForm)),
    "m36finish": Action(
        sk.m36_finish,
        with_sides(rf.M36FinishForm),
        fields=(),
        extra=lambda form: {
            "winner_index": None
            if form.cleaned_data["winner"] == "draw"
            else int(form.cleaned_data["winner"])
        },
    ),
    "conditions": Action(
        sk.m36_post_battle,
        with_units(rf.ConditionForm),
        fields=(),
        extra=lambda form: {"conditions": form.conditions()},
    ),
}
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


# Actions of one game only; the others (join, readings, undo, corrections) are for both.
PARABELLUM_ACTIONS = (
    "orders",
    "shoot",
    "assault",
    "grenade",
    "support",
    "tactical",
    "projector",
    "bombardment",
    "casualty",
    "turn",
    "finish",
    "apply",
)
ACTIONS.update(M36_PLAY_ACTIONS)
ACTIONS.update(PB_PLAY_ACTIONS)
GAME_OF = {
    **dict.fromkeys((*M1936_ACTIONS, *M36_PLAY_ACTIONS), M1936),
    **dict.fromkeys((*PARABELLUM_ACTIONS, *PB_PLAY_ACTIONS), PARABELLUM),
}


def check_game(name: str, battle) -> None:
    """Refuse, before any form is built, an action of the other game."""
    if GAME_OF.get(name, battle.system) != battle.system:
        raise ValidationError({"__all__": [_("That procedure belongs to another game.")]})


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
    try:
        check_game(name, battle)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect(battle)
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


def _grenade(battle, me, form):
    d = form.cleaned_data
    kind = "grenade_launcher" if d["launcher"] else "grenade"
    return sk.area_preview(battle=battle, kind=kind, targets=d["targets"])


# name → preview(battle, my side, the valid form): the exact odds before rolling
PB_PREVIEWS = {
    "shoot": lambda battle, me, form: sk.shot_preview(
        battle=battle,
        shooter=form.cleaned_data["shooter"],
        target=form.cleaned_data["target"],
        **engine_params(form),
    ),
    "assault": lambda battle, me, form: sk.assault_preview(
        battle=battle,
        attacker=form.cleaned_data["attacker"],
        defender=form.cleaned_data["defender"],
        **engine_params(form),
    ),
    "grenade": _grenade,
    "projector": lambda battle, me, form: sk.projector_preview(
        battle=battle,
        distance_cm=form.cleaned_data["distance_cm"],
        moved=form.cleaned_data["moved"],
        targets=form.targets(),
    ),
    "support": lambda battle, me, form: sk.area_preview(
        battle=battle, kind=form.cleaned_data["kind"], targets=form.cleaned_data["targets"]
    ),
}
PREVIEWS = {
    **{name: (PARABELLUM, fn) for name, fn in PB_PREVIEWS.items()},
    **{
        name: (M1936, lambda battle, me, form, fn=fn: fn(battle, me, form.cleaned_data))
        for name, fn in M36_PREVIEWS.items()
    },
}


def previewed(name: str, battle) -> bool:
    """Whether the action `name` has a preview of its odds in this battle's game."""
    return name in PREVIEWS and PREVIEWS[name][0] == battle.system


def preview_form(name: str, request, battle, data):
    """The action's form bound to `data` for a preview: the dice fields are not needed."""
    form = ACTIONS[name].form(request, battle, data)
    if "dice_mode" in form.fields:
        form.fields["dice_mode"].required = False
    return form


def preview_of(name: str, battle, me, form):
    """The preview of a valid form (a ValidationError when the battle refuses it)."""
    return PREVIEWS[name][1](battle, me, form)


@login_required
@require_POST
def skirmish_odds(request, pk: int, name: str):
    """Exact odds of a shot, assault or area attack before rolling (htmx partial)."""
    battle = battle_for(request, pk)
    me = player_side(request.user, battle)
    if not previewed(name, battle) or me is None:
        raise Http404
    form = preview_form(name, request, battle, request.POST)
    preview, error = None, ""
    if form.is_valid():
        try:
            preview = preview_of(name, battle, me, form)
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
