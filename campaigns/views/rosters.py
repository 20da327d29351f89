"""Roster pages (live builders, history, house rules) and skirmish battle pages."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaigns.models import Roster, RosterChange, SkirmishBattle
from campaigns.rosters import forms as rf
from campaigns.rosters.engine import M1936, PARABELLUM, pb_house_rules, report
from campaigns.rosters.permissions import (
    can_correct_result,
    can_edit_roster,
    can_view_battle,
    can_view_roster,
    is_organiser,
    player_side,
)
from campaigns.selectors.rosters import (
    battle_events,
    battle_orders,
    battles_for,
    roster_battles,
    roster_detail,
    roster_history,
    rosters_for,
    sealed_status,
    skirmish_detail,
)
from campaigns.services import rosters as svc
from campaigns.services import skirmish as sk
from campaigns.views.common import partial_request
from rules.errors import RuleError
from rules.m1936.army import ArmyList
from rules.m1936.bogging import Ground, bog_risk, can_bog
from rules.m1936.data import catalogue
from rules.m1936.weather import Weather
from rules.parabellum.battle import TURNS
from rules.parabellum.roster import Roster as PBRoster

HISTORY_ON_PAGE = 10


def _apply_errors(form, exc: ValidationError) -> None:
    if hasattr(exc, "error_dict"):
        for field, errors in exc.message_dict.items():
            target = field if field in form.fields else None
            for e in errors:
                form.add_error(target, e)
    else:
        for e in exc.messages:
            form.add_error(None, e)


def _roster(request, pk: int) -> Roster:
    try:
        roster = roster_detail(pk)
    except Roster.DoesNotExist:
        raise Http404 from None
    if not can_view_roster(request.user, roster):
        raise Http404
    return roster


@login_required
def roster_list(request):
    return render(
        request,
        "rosters/list.html",
        {
            "rosters": rosters_for(request.user),
            "archived": rosters_for(request.user, archived=True),
            "battles": battles_for(request.user)[:20],
        },
    )


@login_required
def roster_new(request):
    form = rf.RosterCreateForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            roster = svc.roster_create(
                owner=request.user,
                system=data["system"],
                name=data["name"],
                campaign=data["campaign"],
                squad_type=data["squad_type"],
                faction=data["faction"],
                role=data["role"],
                quality=data["quality"],
                size=data["size"],
                defender_points=data["defender_points"],
            )
        except ValidationError as exc:
            _apply_errors(form, exc)
        else:
            messages.success(request, _("Roster created. Build it below; every edit is checked."))
            return redirect(roster)
    return render(request, "rosters/new.html", {"form": form}, status=400 if form.errors else 200)


def _builder_context(request, roster: Roster, *, error: str = "", selected: int | None = None):
    if selected is None and request.GET.get("entry", "").isdigit():
        selected = int(request.GET["entry"]) - 1
    rep = report(roster.system, roster.data, roster.house_rules, selected)
    return {
        "roster": roster,
        "report": rep,
        "can_edit": can_edit_roster(request.user, roster) and roster.archived_at is None,
        "builder_error": error,
        "selected": selected,
    }


def roster_detail_view(request, pk: int):
    roster = _roster(request, pk)
    context = _builder_context(request, roster)
    if partial_request(request):
        return render(request, "rosters/detail.html#builder", context)
    hr_form = None
    if context["can_edit"]:
        if roster.system == PARABELLUM:
            hr_form = rf.PBHouseRulesForm(initial=pb_house_rules(roster.house_rules).to_dict())
        else:
            hr_form = rf.M36HouseRulesForm(initial=roster.house_rules)
    context.update(
        {
            "history": roster_history(roster)[:HISTORY_ON_PAGE],
            "battles": roster_battles(roster)[:20],
            "hr_form": hr_form,
        }
    )
    return render(request, "rosters/detail.html", context)


@login_required
@require_POST
def roster_edit_view(request, pk: int):
    """One builder edit; htmx gets the builder partial back, with violations and points left."""
    roster = _roster(request, pk)
    if not can_edit_roster(request.user, roster):
        raise Http404
    form = (rf.PBEditForm if roster.system == PARABELLUM else rf.M36EditForm)(request.POST)
    error = ""
    selected = None
    if form.is_valid():
        edit = dict(form.cleaned_data)
        if roster.system == M1936 and edit.get("entry"):
            selected = edit["entry"] - 1
        try:
            roster = svc.roster_edit(roster=roster, actor=request.user, edit=edit)
        except ValidationError as exc:
            error = " ".join(exc.messages)
    else:
        error = " ".join(f"{k}: {' '.join(v)}" for k, v in form.errors.items())
    if roster.system == M1936 and form.is_valid() and form.cleaned_data["op"] == "remove_unit":
        selected = None
    if partial_request(request):
        context = _builder_context(request, roster, error=error, selected=selected)
        return render(request, "rosters/detail.html#builder", context, status=400 if error else 200)
    if error:
        messages.error(request, error)
    return redirect(roster)


@login_required
def roster_settings(request, pk: int):
    roster = _roster(request, pk)
    if not can_edit_roster(request.user, roster):
        raise Http404
    form = rf.RosterSettingsForm(
        request.POST or None,
        roster=roster,
        initial={"name": roster.name, "campaign": roster.campaign},
    )
    if request.method == "POST" and form.is_valid():
        try:
            svc.roster_update(roster=roster, actor=request.user, **form.cleaned_data)
        except ValidationError as exc:
            _apply_errors(form, exc)
        else:
            messages.success(request, _("Saved."))
            return redirect(roster)
    return render(
        request,
        "rosters/settings.html",
        {"roster": roster, "form": form},
        status=400 if form.errors else 200,
    )


@login_required
@require_POST
def roster_house_rules(request, pk: int):
    roster = _roster(request, pk)
    if not can_edit_roster(request.user, roster):
        raise Http404
    cls = rf.PBHouseRulesForm if roster.system == PARABELLUM else rf.M36HouseRulesForm
    form = cls(request.POST)
    if form.is_valid():
        try:
            svc.roster_house_rules_set(roster=roster, actor=request.user, options=form.cleaned_data)
        except ValidationError as exc:
            for m in exc.messages:
                messages.error(request, m)
        else:
            messages.success(request, _("House rules saved."))
    else:
        for field, errors in form.errors.items():
            for e in errors:
                messages.error(request, f"{form.fields[field].label}: {e}")
    return redirect(roster)


def roster_history_view(request, pk: int):
    roster = _roster(request, pk)
    page = Paginator(roster_history(roster), 50).get_page(request.GET.get("page"))
    return render(
        request,
        "rosters/history.html",
        {"roster": roster, "page": page, "can_edit": can_edit_roster(request.user, roster)},
    )


@login_required
def roster_revert_view(request, pk: int, seq: int):
    roster = _roster(request, pk)
    if not can_edit_roster(request.user, roster):
        raise Http404
    change = get_object_or_404(RosterChange, roster=roster, seq=seq)
    if request.method == "POST":
        try:
            svc.roster_revert(change=change, actor=request.user)
        except ValidationError as exc:
            for m in exc.messages:
                messages.error(request, m)
        else:
            messages.success(request, _("Undone; the history keeps both entries."))
        return redirect(roster)
    return render(
        request,
        "rosters/confirm.html",
        {
            "roster": roster,
            "title": _("Undo change #%(n)s?") % {"n": change.seq},
            "text": _(
                "The roster goes back to how it was before “%(s)s”. Later changes to the same soldiers or units are undone too; the history keeps every entry."
            )
            % {"s": change.summary},
            "button": _("Undo the change"),
        },
    )


@login_required
def roster_archive_view(request, pk: int):
    roster = _roster(request, pk)
    if not can_edit_roster(request.user, roster):
        raise Http404
    archived = roster.archived_at is None
    if request.method == "POST":
        try:
            svc.roster_archive(roster=roster, actor=request.user, archived=archived)
        except ValidationError as exc:
            for m in exc.messages:
                messages.error(request, m)
        return redirect("roster-list" if archived else roster.get_absolute_url())
    return render(
        request,
        "rosters/confirm.html",
        {
            "roster": roster,
            "title": _("Archive “%(n)s”?") % {"n": roster.name}
            if archived
            else _("Restore “%(n)s”?") % {"n": roster.name},
            "text": _(
                "Archived rosters cannot be edited or fielded; their history and battles stay, and you can restore them."
            )
            if archived
            else _("The roster can be edited and fielded again."),
            "button": _("Archive") if archived else _("Restore"),
        },
    )


# --- skirmish battles ------------------------------------------------------------------------


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
            _apply_errors(form, exc)
        else:
            messages.success(request, _("Battle opened; your opponent joins with a roster."))
            return redirect(battle)
    return render(
        request, "rosters/battle_new.html", {"form": form}, status=400 if form.errors else 200
    )


def _battle(request, pk: int) -> SkirmishBattle:
    try:
        battle = skirmish_detail(pk)
    except SkirmishBattle.DoesNotExist:
        raise Http404 from None
    if not can_view_battle(request.user, battle):
        raise Http404
    return battle


def _soldier_choices(sides) -> list[tuple[str, str]]:
    out = []
    for s in sides:
        if not s.snapshot:
            continue
        down = {c["soldier_id"] for c in s.casualties if c.get("healed_turn") is None}
        for x in PBRoster.from_dict(s.snapshot).active:
            mark = " ✝" if x.id in down else ""
            out.append((f"{s.index}:{x.id}", f"{s.player} · {x.id} ({x.experience}){mark}"))
    return out


def _unit_labels(snapshot: dict) -> list[str]:
    if not snapshot:
        return []
    army = ArmyList.from_dict(snapshot)
    return [f"{i + 1}. {e.label or e.profile}" for i, e in enumerate(army.entries)]


def _forms(request, battle: SkirmishBattle, bound: dict | None = None) -> dict:
    sides = list(battle.sides.all())
    me = player_side(request.user, battle)
    f: dict = {}
    if battle.status == "setup" and me and me.index == 1:
        f["join"] = rf.JoinForm(user=request.user, system=battle.system)
    if battle.status == "playing" and me and battle.system == PARABELLUM:
        soldiers = _soldier_choices(sides)
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
        f["morale"] = rf.MoraleForm(units=_unit_labels(me.snapshot))
        f["performance"] = rf.PerformanceForm()
        if battle.weather:
            f["bog"] = rf.BogForm(units=_unit_labels(me.snapshot))
        f["m36finish"] = rf.M36FinishForm(sides=sides)
    if battle.status == "finished" and me and me.applied_at is None and me.roster_id:
        if battle.system == PARABELLUM:
            f["apply"] = rf.DiceForm()
        else:
            f["conditions"] = rf.ConditionForm(units=_unit_labels(me.snapshot))
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
    context = {
        "battle": battle,
        "sides": sides,
        "me": player_side(request.user, battle),
        "events": battle_events(request.user, battle),
        "orders": battle_orders(request.user, battle),
        "sealed": sealed_status(battle) if battle.mode == "orders" else {},
        "forms": _forms(request, battle, bound),
        "turns": battle.turns,
        "score": battle.score,
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
        for s in sides:
            s.soldiers = PBRoster.from_dict(s.snapshot).soldiers if s.snapshot else ()
            s.down = {c["soldier_id"]: c for c in s.casualties}
    else:
        for s in sides:
            s.units = _unit_labels(s.snapshot)
        context["bog"] = _bog_context(battle, sides)
    return context


def skirmish_detail_view(request, pk: int, *, bound: dict | None = None, status: int = 200):
    battle = _battle(request, pk)
    if partial_request(request) and request.GET.get("partial") == "log":
        events = battle_events(request.user, battle)
        return render(request, "rosters/battle.html#battle-log", {"events": events})
    context = _battle_context(request, battle, bound)
    return render(request, "rosters/battle.html", context, status=status)


def _battle_update(request, pk: int, *, name: str, bound=None, errors=(), done=""):
    """The htmx answer to an action: the actions panel (the acted form open, with its errors)
    and, out of band, the state panel and the battle log — all as this user may see them."""
    battle = _battle(request, pk)
    context = _battle_context(request, battle, bound)
    context.update({"acted": name, "action_errors": list(errors), "action_done": done})
    failed = bool(errors) or any(f is not None and f.errors for f in (bound or {}).values())
    return render(request, "rosters/_battle_update.html", context, status=400 if failed else 200)


ACTIONS = {}


def action(name, form_cls=None):
    def deco(fn):
        ACTIONS[name] = (fn, form_cls)
        return fn

    return deco


def _dice(data):
    return sk.dice_from(data["dice_mode"], data.get("dice") or "")


def _engine_params(form) -> dict:
    return {k: form.cleaned_data.get(k) for k in form.ENGINE}


@action("join")
def _join(request, battle, post):
    form = rf.JoinForm(post, user=request.user, system=battle.system)
    if form.is_valid():
        sk.skirmish_join(battle=battle, actor=request.user, roster=form.cleaned_data["roster"])
    return form


@action("orders")
def _orders(request, battle, post):
    form = rf.OrdersForm(post)
    if form.is_valid():
        sk.skirmish_orders_submit(battle=battle, actor=request.user, **form.cleaned_data)
    return form


def _bound(cls, battle, post):
    form = cls(post)
    form.set_soldiers(_soldier_choices(list(battle.sides.all())))
    return form


@action("shoot")
def _shoot(request, battle, post):
    form = _bound(rf.ShotForm, battle, post)
    if form.is_valid():
        d = form.cleaned_data
        sk.skirmish_shoot(
            battle=battle,
            actor=request.user,
            turn=d["turn"],
            shooter=d["shooter"],
            target=d["target"],
            hit_the_dirt=d["hit_the_dirt"],
            dice=_dice(d),
            **_engine_params(form),
        )
    return form


@action("assault")
def _assault(request, battle, post):
    form = _bound(rf.AssaultForm, battle, post)
    if form.is_valid():
        d = form.cleaned_data
        sk.skirmish_assault(
            battle=battle,
            actor=request.user,
            turn=d["turn"],
            attacker=d["attacker"],
            defender=d["defender"],
            dice=_dice(d),
            **_engine_params(form),
        )
    return form


@action("grenade")
def _grenade(request, battle, post):
    form = _bound(rf.GrenadeForm, battle, post)
    if form.is_valid():
        d = form.cleaned_data
        sk.skirmish_grenade(
            battle=battle,
            actor=request.user,
            turn=d["turn"],
            thrower=d["thrower"],
            launcher=d["launcher"],
            distance_cm=d["distance_cm"],
            moved=d["moved"],
            los_to_marker=d["los_to_marker"],
            targets=d["targets"],
            hit_the_dirt=d["hit_the_dirt"],
            dice=_dice(d),
        )
    return form


@action("support")
def _support(request, battle, post):
    form = _bound(rf.SupportForm, battle, post)
    if form.is_valid():
        d = form.cleaned_data
        sk.skirmish_support(
            battle=battle,
            actor=request.user,
            turn=d["turn"],
            kind=d["kind"],
            po=d["po"] or 0,
            targets=d["targets"],
            hit_the_dirt=d["hit_the_dirt"],
            radio_operator=d["radio_operator"],
            dice=_dice(d),
        )
    return form


@action("tactical")
def _tactical(request, battle, post):
    form = rf.TacticalForm(post, sides=list(battle.sides.all()))
    if form.is_valid():
        d = form.cleaned_data
        sk.skirmish_tactical(
            battle=battle, actor=request.user, turn=d["turn"], blue=(d["blue_0"], d["blue_1"])
        )
    return form


@action("projector")
def _projector(request, battle, post):
    form = _bound(rf.ProjectorForm, battle, post)
    if form.is_valid():
        d = form.cleaned_data
        sk.skirmish_projector(
            battle=battle,
            actor=request.user,
            turn=d["turn"],
            firer=d["firer"],
            distance_cm=d["distance_cm"],
            moved=d["moved"],
            targets=form.targets(),
            hit_the_dirt=d["hit_the_dirt"],
            dice=_dice(d),
        )
    return form


@action("bombardment")
def _bombardment(request, battle, post):
    form = _bound(rf.BombardmentForm, battle, post)
    if form.is_valid():
        d = form.cleaned_data
        sk.skirmish_bombardment(
            battle=battle,
            actor=request.user,
            targets=d["targets"],
            hit_the_dirt=d["hit_the_dirt"],
            dice=_dice(d),
        )
    return form


@action("correct")
def _correct(request, battle, post):
    form = rf.CorrectionForm(post, sides=list(battle.sides.all()))
    if form.is_valid():
        sk.skirmish_result_correct(
            battle=battle,
            actor=request.user,
            winner_index=form.winner_index(),
            reason=form.cleaned_data["reason"],
        )
    return form


@action("agree")
def _agree(request, battle, post):
    raw = post.get("correction", "")
    if not raw.isdigit():
        raise ValidationError(_("That proposal is no longer pending: reload the page."))
    sk.skirmish_result_agree(battle=battle, actor=request.user, correction_id=int(raw))


@action("bog")
def _bog(request, battle, post):
    me = player_side(request.user, battle)
    form = rf.BogForm(post, units=_unit_labels(me.snapshot if me else {}))
    if form.is_valid():
        d = form.cleaned_data
        sk.m36_bog_check(
            battle=battle,
            actor=request.user,
            unit=int(d["unit"]),
            ground=d["ground"],
            value=d["value"],
        )
    return form


@action("casualty")
def _casualty(request, battle, post):
    form = _bound(rf.CasualtyForm, battle, post)
    if form.is_valid():
        sk.skirmish_casualty(battle=battle, actor=request.user, **form.cleaned_data)
    return form


@action("turn")
def _turn(request, battle, post):
    form = rf.TurnForm(post, soldiers=_soldier_choices(list(battle.sides.all())))
    if form.is_valid():
        d = form.cleaned_data
        sk.skirmish_turn_record(
            battle=battle,
            actor=request.user,
            turn=d["turn"],
            po=[d["po_0"], d["po_1"]],
            models=form.models(),
        )
    return form


@action("finish")
def _finish(request, battle, post):
    sk.skirmish_finish(battle=battle, actor=request.user)


@action("apply")
def _apply(request, battle, post):
    form = rf.DiceForm(post)
    if form.is_valid():
        sk.skirmish_apply_house_rules(
            battle=battle, actor=request.user, dice=_dice(form.cleaned_data)
        )
    return form


@action("scenario")
def _scenario(request, battle, post):
    form = rf.ScenarioForm(post)
    if form.is_valid():
        d = form.cleaned_data
        sk.m36_scenario_create(
            battle=battle,
            actor=request.user,
            terrain=d["terrain"],
            user_table=d["user_table"],
            dice=_dice(d),
        )
    return form


@action("tie")
def _tie(request, battle, post):
    pending = (battle.scenario or {}).get("pending") or {"options": []}
    form = rf.TieForm(post, options=[tuple(o) for o in pending["options"]])
    if form.is_valid():
        sk.m36_scenario_tie(
            battle=battle, actor=request.user, order=form.cleaned_data["order"].split("|")
        )
    return form


@action("plan")
def _plan(request, battle, post):
    form = rf.PlanForm(post)
    if form.is_valid():
        sk.m36_scenario_plan(
            battle=battle,
            actor=request.user,
            sector=form.cleaned_data["sector"],
            counts=form.counts(),
            last_piece=form.cleaned_data["last_piece"],
        )
    return form


@action("objectives")
def _objectives(request, battle, post):
    sk.m36_objectives(battle=battle, actor=request.user)


@action("weather")
def _weather(request, battle, post):
    form = rf.WeatherForm(post)
    if form.is_valid():
        d = form.cleaned_data
        sk.m36_weather(battle=battle, actor=request.user, season=d["season"], dice=_dice(d))
    return form


@action("weather_change")
def _weather_change(request, battle, post):
    form = rf.WeatherChangeForm(post)
    if form.is_valid():
        d = form.cleaned_data
        sk.m36_weather_change(battle=battle, actor=request.user, turn=d["turn"], dice=_dice(d))
    return form


@action("construction")
def _construction(request, battle, post):
    form = rf.ConstructionForm(post)
    if form.is_valid():
        sk.m36_construction_start(battle=battle, actor=request.user, **form.cleaned_data)
    return form


@action("fortify")
def _fortify(request, battle, post):
    form = rf.FortificationForm(post)
    if form.is_valid():
        sk.m36_fortification_buy(battle=battle, actor=request.user, **form.cleaned_data)
    return form


@action("morale")
def _morale(request, battle, post):
    me = player_side(request.user, battle)
    form = rf.MoraleForm(post, units=_unit_labels(me.snapshot if me else {}))
    if form.is_valid():
        sk.m36_battalion_morale(battle=battle, actor=request.user, states=form.states())
    return form


@action("performance")
def _performance(request, battle, post):
    form = rf.PerformanceForm(post)
    if form.is_valid():
        sk.m36_performance(battle=battle, actor=request.user, **form.cleaned_data)
    return form


@action("m36finish")
def _m36finish(request, battle, post):
    form = rf.M36FinishForm(post, sides=list(battle.sides.all()))
    if form.is_valid():
        w = form.cleaned_data["winner"]
        sk.m36_finish(
            battle=battle, actor=request.user, winner_index=None if w == "draw" else int(w)
        )
    return form


@action("conditions")
def _conditions(request, battle, post):
    me = player_side(request.user, battle)
    form = rf.ConditionForm(post, units=_unit_labels(me.snapshot if me else {}))
    if form.is_valid():
        sk.m36_post_battle(battle=battle, actor=request.user, conditions=form.conditions())
    return form


@login_required
@require_POST
def skirmish_action(request, pk: int, name: str):
    """Every battle action: the service runs it, or the form comes back with its errors.
    An htmx post gets the actions, state and log panels back in place; a plain post is
    redirected (or the page is shown again with the errors)."""
    battle = _battle(request, pk)
    if name not in ACTIONS:
        raise Http404
    if player_side(request.user, battle) is None and not (
        name in ("correct", "agree") and is_organiser(request.user, battle)
    ):
        raise Http404
    fn, _cls = ACTIONS[name]
    form = None
    errors: list[str] = []
    try:
        form = fn(request, battle, request.POST)
    except ValidationError as exc:
        form = _rebind(request, battle, name)
        if form is None:
            errors = exc.messages
        else:
            _apply_errors(form, exc)
    failed = form is not None and bool(form.errors)
    if partial_request(request):
        return _battle_update(
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


def _rebind(request, battle, name):
    """The bound form of an action, to show the service's errors next to its fields."""
    post = request.POST
    sides = list(battle.sides.all())
    me = player_side(request.user, battle)
    soldiers = _soldier_choices(sides) if battle.system == PARABELLUM else []
    simple = {
        "join": lambda: rf.JoinForm(post, user=request.user, system=battle.system),
        "orders": lambda: rf.OrdersForm(post),
        "tactical": lambda: rf.TacticalForm(post, sides=sides),
        "correct": lambda: rf.CorrectionForm(post, sides=sides),
        "bog": lambda: rf.BogForm(post, units=_unit_labels(me.snapshot if me else {})),
        "apply": lambda: rf.DiceForm(post),
        "scenario": lambda: rf.ScenarioForm(post),
        "weather": lambda: rf.WeatherForm(post),
        "weather_change": lambda: rf.WeatherChangeForm(post),
        "construction": lambda: rf.ConstructionForm(post),
        "fortify": lambda: rf.FortificationForm(post),
        "performance": lambda: rf.PerformanceForm(post),
        "plan": lambda: rf.PlanForm(post),
        "m36finish": lambda: rf.M36FinishForm(post, sides=sides),
        "turn": lambda: rf.TurnForm(post, soldiers=soldiers),
        "morale": lambda: rf.MoraleForm(post, units=_unit_labels(me.snapshot if me else {})),
        "conditions": lambda: rf.ConditionForm(post, units=_unit_labels(me.snapshot if me else {})),
    }
    soldier_forms = {
        "shoot": rf.ShotForm,
        "assault": rf.AssaultForm,
        "grenade": rf.GrenadeForm,
        "projector": rf.ProjectorForm,
        "bombardment": rf.BombardmentForm,
        "support": rf.SupportForm,
        "casualty": rf.CasualtyForm,
    }
    if name in soldier_forms:
        form = soldier_forms[name](post)
        form.set_soldiers(soldiers)
    elif name in simple:
        form = simple[name]()
    else:
        return None
    form.is_valid()
    return form


@login_required
@require_POST
def skirmish_odds(request, pk: int, name: str):
    """Exact odds of a shot, assault or area attack before rolling (htmx partial)."""
    battle = _battle(request, pk)
    if battle.system != PARABELLUM or player_side(request.user, battle) is None:
        raise Http404
    soldiers = _soldier_choices(list(battle.sides.all()))
    cls = {
        "shoot": rf.ShotForm,
        "assault": rf.AssaultForm,
        "grenade": rf.GrenadeForm,
        "projector": rf.ProjectorForm,
        "support": rf.SupportForm,
    }.get(name)
    if cls is None:
        raise Http404
    form = cls(request.POST)
    form.set_soldiers(soldiers)
    preview, error = None, ""
    # odds never need the dice fields
    form.fields["dice_mode"].required = False
    if form.is_valid():
        d = form.cleaned_data
        try:
            if name == "shoot":
                preview = sk.shot_preview(
                    battle=battle, shooter=d["shooter"], target=d["target"], **_engine_params(form)
                )
            elif name == "assault":
                preview = sk.assault_preview(
                    battle=battle,
                    attacker=d["attacker"],
                    defender=d["defender"],
                    **_engine_params(form),
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
