"""Skirmish battle pages: opening a battle, the battle page with its forms, state and log,
and the htmx update after an action."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from campaigns.i18n import say
from campaigns.models import SkirmishBattle
from campaigns.permissions import (
    can_correct_result,
    can_view_roster,
    can_view_skirmish,
    player_side,
)
from campaigns.rosters import forms as rf
from campaigns.rosters.engine import M1936, PARABELLUM
from campaigns.rosters.readings import readings_for
from campaigns.selectors.rosters import (
    battle_events_window,
    battle_orders,
    last_action_to_undo,
    parabellum_turn_series,
    sealed_status,
    skirmish_detail,
)
from campaigns.selectors.skirmish_play import play_summary
from campaigns.services import skirmish as sk
from campaigns.views.common import form_errors, partial_request
from campaigns.views.paging import cursor, more, window
from campaigns.views.rosters.actions_m36 import m36_play_forms
from campaigns.views.rosters.choices import soldier_choices, soldier_rows, unit_labels
from campaigns.views.rosters.pb_forms import pb_play_forms
from rules.errors import RuleError
from rules.i18n import msg
from rules.m1936.army import ArmyList
from rules.m1936.bogging import Ground, bog_risk, can_bog
from rules.m1936.data import catalogue
from rules.m1936.weather import Weather
from rules.parabellum import labels as pbl
from rules.parabellum.battle import TURNS
from rules.parabellum.roster import Roster as PBRoster


@login_required
def skirmish_new(request):
    form = rf.SkirmishCreateForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            battle = sk.skirmish_create(
                creator=request.user,
                roster=data["roster"],
                role=data["role"],
                opponent=data["opponent"],
                mode=data["mode"],
                title=data["title"],
                campaign=data["roster"].campaign,
            )
        except ValidationError as exc:
            form_errors(form, exc)
        else:
            messages.success(request, _("Battle opened; your opponent joins with a roster."))
            return redirect(battle)
    return render(
        request, "rosters/battle_new.html", {"form": form}, status=400 if form.errors else 200
    )


def battle_for(request, pk: int) -> SkirmishBattle:
    try:
        battle = skirmish_detail(pk)
    except SkirmishBattle.DoesNotExist:
        raise Http404 from None
    if not can_view_skirmish(request.user, battle):
        raise Http404
    return battle


def _forms(request, battle: SkirmishBattle, bound: dict | None = None) -> dict:
    sides = list(battle.sides.all())
    me = player_side(request.user, battle)
    f: dict = {}
    if battle.status == "setup" and me and me.index == 1:
        f["join"] = rf.JoinForm(user=request.user, system=battle.system)
    if battle.status == "playing" and me and battle.system == PARABELLUM:
        soldiers = soldier_choices(sides)
        f["tactical"] = rf.TacticalForm(
            sides=sides,
            initial={"turn": min(len(battle.tactical or []) + 1, TURNS)},
        )
        kinds = [
            ("shoot", rf.ShotForm),
            ("assault", rf.AssaultForm),
            ("grenade", rf.GrenadeForm),
            ("projector", rf.ProjectorForm),
            ("support", rf.SupportForm),
            ("casualty", rf.CasualtyForm),
        ]
        if _stonk_ready(battle, me):
            kinds.insert(0, ("bombardment", rf.BombardmentForm))
        for name, cls in kinds:
            form = cls()
            form.set_soldiers(soldiers)
            f[name] = form
        f["turn"] = rf.TurnForm(
            soldiers=soldiers,
            initial={
                "po_0": sides[0].po,
                "po_1": sides[1].po,
                "turn": len(battle.turns) + 1 if len(battle.turns) < 5 else 5,
            },
        )
        if battle.mode == "orders":
            f["orders"] = rf.OrdersForm()
    if battle.status == "playing" and me and battle.system == M1936:
        f["scenario"] = rf.ScenarioForm()
        pending = (battle.scenario or {}).get("pending")
        if pending:
            f["tie"] = rf.TieForm(options=[tuple(o) for o in pending["options"]])
        f["plan"] = rf.PlanForm()
        f["weather"] = rf.WeatherForm()
        f["weather_change"] = rf.WeatherChangeForm()
        f["construction"] = rf.ConstructionForm()
        f["fortify"] = rf.FortificationForm()
        f["morale"] = rf.MoraleForm(units=unit_labels(me.snapshot))
        f["performance"] = rf.PerformanceForm()
        if battle.weather:
            f["bog"] = rf.BogForm(units=unit_labels(me.snapshot))
        f["m36finish"] = rf.M36FinishForm(sides=sides)
    if battle.status == "finished" and me and me.applied_at is None and me.roster_id:
        if battle.system == PARABELLUM:
            f["apply"] = rf.DiceForm()
        else:
            f["conditions"] = rf.ConditionForm(units=unit_labels(me.snapshot))
    if battle.status == "playing" and me and battle.system == M1936:
        f.update(m36_play_forms(request, battle, me))
    if battle.status == "playing" and me and battle.system == PARABELLUM:
        f.update(pb_play_forms(request, battle, me))
    if battle.status == "playing" and me and readings_for(battle.system):
        f["readings"] = rf.ReadingsForm(battle=battle, me=me)
    if can_correct_result(request.user, battle):
        f["correct"] = rf.CorrectionForm(sides=sides)
    if bound:
        f.update(bound)
    for name, form in f.items():  # one page, many forms: ids unique per action
        form.auto_id = f"id_{name}_%s"
    return f


def _stonk_ready(battle: SkirmishBattle, me) -> bool:
    """A British player before turn 1 who has not fired the preliminary bombardment."""
    if me is None or not me.snapshot or battle.turns or battle.tactical:
        return False
    if "stonk" not in PBRoster.from_dict(me.snapshot).type.special_rules:
        return False
    return not battle.events.filter(data__stonk=me.index).exists()


def _bog_context(battle: SkirmishBattle, sides) -> dict | None:
    """Where each unit that can bog down must check, under the current weather (IV.7, XV.2)."""
    if not battle.weather:
        return None
    weather = Weather(battle.weather["current"]["weather"])
    grounds = list(Ground)
    rows = []
    for s in sides:
        if not s.snapshot:
            continue
        army = ArmyList.from_dict(s.snapshot)
        for i, e in enumerate(army.entries):
            try:
                profile = catalogue().profile(army.faction, e.profile)
            except RuleError:
                continue
            if not can_bog(profile):
                continue
            risks = [bog_risk(profile, g, weather).at_risk for g in grounds]
            rows.append(
                {"player": s.player, "unit": f"{i + 1}. {e.label or e.profile}", "risks": risks}
            )
    return {"weather": weather, "grounds": [str(g) for g in grounds], "rows": rows}


def _battle_context(request, battle: SkirmishBattle, bound: dict | None = None) -> dict:
    """Everything the battle page and its partials show, as this user may see it."""
    sides = list(battle.sides.all())
    for s in sides:  # link a roster only for a reader who may open it (never a 404)
        s.roster_visible = s.roster is not None and can_view_roster(request.user, s.roster)
    me = player_side(request.user, battle)
    context = {
        "battle": battle,
        "sides": sides,
        "me": me,
        "events": window(battle_events_window, request.user, battle, cursor=cursor(request)),
        "orders": _orders_in_words(battle_orders(request.user, battle)),
        "sealed": sealed_status(battle) if battle.mode == "orders" else {},
        "forms": _forms(request, battle, bound),
        "turns": battle.turns,
        "score": battle.score,
        "undo": last_action_to_undo(request.user, battle),
        "summary": play_summary(battle, sides, me),
    }
    if battle.status == SkirmishBattle.Status.FINISHED:
        corrections = list(battle.corrections.select_related("proposed_by").order_by("created_at"))
        context["pending_corrections"] = [c for c in corrections if c.status == "proposed"]
        context["applied_corrections"] = [c for c in corrections if c.status == "applied"]
    if battle.system == PARABELLUM:
        context["tactical_rows"] = [
            {
                "turn": t["turn"],
                "cells": list(zip(t["blue"], t["po_gained"], strict=True)),
                "holder": sides[t["initiative"]].player,
            }
            for t in battle.tactical or []
        ]
        context.update(parabellum_turn_series(battle, sides))
        for s in sides:
            s.soldiers = soldier_rows(s.snapshot)
            s.down = {
                c["soldier_id"]: {**c, "cause": say(pbl.label(pbl.CAUSES, c.get("cause")))}
                for c in s.casualties
            }
    else:
        for s in sides:
            s.units = unit_labels(s.snapshot)
        context["bog"] = _bog_context(battle, sides)
    return context


def _orders_in_words(orders: list) -> list:
    """Sealed orders with their priority order and directives named, not numbered."""
    for o in orders:
        o.priority_label = say(
            msg("%(n)s. %(d)s", n=o.priority_order, d=pbl.PRIORITY_ORDERS[o.priority_order])
        )
        o.directive_labels = [
            say(msg("%(n)s. %(d)s", n=d, d=pbl.DIRECTIVES[d])) for d in o.directives
        ]
    return orders


def skirmish_detail_view(request, pk: int, *, bound: dict | None = None, status: int = 200):
    battle = battle_for(request, pk)
    if partial_request(request) and request.GET.get("partial") == "log":
        events = window(battle_events_window, request.user, battle)
        return render(request, "rosters/battle.html#battle-log", {"events": events})
    if more(request) == "log":  # the next older window, in place of the "Older" row
        events = window(battle_events_window, request.user, battle, cursor=cursor(request))
        return render(request, "rosters/battle.html#event-rows", {"events": events})
    context = _battle_context(request, battle, bound)
    return render(request, "rosters/battle.html", context, status=status)


def battle_update(request, pk: int, *, name: str, bound=None, errors=(), done=""):
    """The htmx answer to an action: the actions panel (the acted form open, with its errors)
    and, out of band, the state panel and the battle log — all as this user may see them."""
    battle = battle_for(request, pk)
    context = _battle_context(request, battle, bound)
    context.update({"acted": name, "action_errors": list(errors), "action_done": done})
    if done:  # the result where the button was: the newest entry this user may read
        context["action_result"] = next(iter(context["events"]), None)
    failed = bool(errors) or any(f is not None and f.errors for f in (bound or {}).values())
    return render(request, "rosters/_battle_update.html", context, status=400 if failed else 200)
