"""España 1936 procedures: the scenario (I), weather (XV), construction (VIII.5), battalion
morale (XI.7), bogging down (IV.7), performance rolls (V) and the result."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.models import SkirmishBattle, SkirmishEvent, SkirmishSide
from campaigns.rosters.engine import M1936, jsonable, m36_army_list, m36_army_options
from campaigns.rosters.readings import battle_readings
from campaigns.services.skirmish.battles import close_battle, record_battle_history
from campaigns.services.skirmish.common import (
    all_dice_used,
    battle_sides,
    engine_errors,
    log_event,
    log_roll,
    playing,
    rolls,
)
from rules.explain import Explanation
from rules.i18n import msg
from rules.m1936 import bogging as m36b
from rules.m1936 import construction as m36c
from rules.m1936 import labels
from rules.m1936 import morale as m36m
from rules.m1936 import scenario as m36s
from rules.m1936 import weather as m36w
from rules.m1936.army import effective_rules
from rules.m1936.data import catalogue
from rules.m1936.labels import label
from rules.m1936.performance import performance_result


def _defender_only(side: SkirmishSide, message: str) -> None:
    if side.role != "defender":
        raise ValidationError({"__all__": [message]})


def _scenario_options(battle: SkirmishBattle) -> m36s.ScenarioOptions:
    read = battle_readings(M1936, battle.readings)
    return m36s.ScenarioOptions(
        last_piece_per_element=read["last_piece_per_element"],
        objectives_one_per_sector=read["objectives_one_per_sector"],
    )


def _sheet(battle: SkirmishBattle) -> m36s.ScenarioSheet:
    if not battle.scenario:
        raise ValidationError({"__all__": [_("Create the scenario first.")]})
    return m36s.ScenarioSheet.from_dict(battle.scenario)


def _save_sheet(battle, sheet, actor, summary, dice=None, rule=m36s.PLACEMENT_RULE) -> None:
    battle.scenario = jsonable(sheet.to_dict())
    battle.save(update_fields=["scenario"])
    log_event(
        battle,
        kind=SkirmishEvent.Kind.SETUP,
        summary=summary,
        actor=actor,
        rule=rule,
        data={"rolls": rolls(dice)} if dice else {},
    )


def m36_scenario_create(
    *, battle: SkirmishBattle, actor, terrain: str, user_table: list | None, dice
) -> SkirmishBattle:
    """Terrain and the 1d6 per sector type (I.4); Costa/Ciudad need a validated user table."""
    with playing(battle, actor, M1936) as (battle, _side):
        if battle.scenario:
            raise ValidationError({"terrain": [_("The scenario is already created.")]})
        if terrain not in m36s.Terrain.__members__.values():
            raise ValidationError({"terrain": [_("Choose a terrain.")]})
        with engine_errors("user_table"):
            sheet = m36s.create_scenario(m36s.Terrain(terrain), dice, user_table=user_table)
        all_dice_used(dice)
        rolls = [
            msg("%(type)s %(roll)s", type=label(labels.SECTOR_TYPES, k), roll=v)
            for k, v in sheet.rolls.items()
        ]
        summary = msg("Scenario on %(t)s: %(r)s", t=label(labels.TERRAINS, sheet.terrain), r=rolls)
        _save_sheet(battle, sheet, actor, summary, dice)
    return battle


def m36_scenario_tie(*, battle: SkirmishBattle, actor, order: list[str]) -> SkirmishBattle:
    with playing(battle, actor, M1936) as (battle, _side):
        with engine_errors("order"):
            sheet = m36s.order_tied_sectors(_sheet(battle), order)
        order_words = [label(labels.SECTOR_TYPES, t) for t in order]
        _save_sheet(battle, sheet, actor, msg("Tie ordered: %(o)s", o=order_words))
    return battle


def m36_scenario_plan(
    *, battle: SkirmishBattle, actor, sector: int, counts: dict[str, int], last_piece: str | None
) -> SkirmishBattle:
    with playing(battle, actor, M1936) as (battle, side):
        if m36s.placer(sector).value != {"attacker": "Atacante", "defender": "Defensor"}[side.role]:
            raise ValidationError({"sector": [_("The other player fills that sector.")]})
        with engine_errors("counts"):
            sheet = m36s.plan_sector(
                _sheet(battle),
                sector,
                counts,
                last_piece=last_piece or None,
                options=_scenario_options(battle),
            )
        shown = [
            msg("%(element)s %(n)s", element=label(labels.ELEMENTS, k), n=v)
            for k, v in sheet.plans[sector].counts.items()
            if v
        ]
        _save_sheet(battle, sheet, actor, msg("Sector %(s)s planned: %(c)s", s=sector, c=shown))
    return battle


def m36_objectives(*, battle: SkirmishBattle, actor) -> SkirmishBattle:
    with playing(battle, actor, M1936) as (battle, side):
        _defender_only(side, _("The defender places the objectives."))
        with engine_errors():
            sheet = m36s.place_objectives(_sheet(battle), options=_scenario_options(battle))
        _save_sheet(battle, sheet, actor, _("Objectives placed in sectors 2, 3 and 4"))
    return battle


def m36_weather(*, battle: SkirmishBattle, actor, season: str, dice) -> SkirmishBattle:
    """Weather on the season table after creating the scenario (XV.1)."""
    with playing(battle, actor, M1936) as (battle, _side):
        if battle.weather:
            raise ValidationError(
                {"season": [_("The weather is already rolled; check for a change every 10 turns.")]}
            )
        if season not in m36w.Season.__members__.values():
            raise ValidationError({"season": [_("Choose a season.")]})
        with engine_errors("season"):
            result = m36w.determine_weather(m36w.Season(season), dice)
        all_dice_used(dice)
        battle.weather = jsonable({"season": season, "current": result.to_dict(), "changes": []})
        battle.save(update_fields=["weather"])
        log_roll(
            battle,
            summary=msg(
                "Weather (%(s)s): 2d6 = %(r)s → %(w)s",
                s=str(season),
                r=str(result.roll),
                w=str(result.weather),
            ),
            actor=actor,
            rule=m36w.DETERMINE_RULE,
            explanation=result.explanation,
            dice=dice,
        )
    return battle


def m36_weather_change(*, battle: SkirmishBattle, actor, turn: int, dice) -> SkirmishBattle:
    """Every 10 turns, 2d6: 10+ re-rolls the weather (XV.4)."""
    with playing(battle, actor, M1936) as (battle, _side):
        if not battle.weather:
            raise ValidationError({"turn": [_("Roll the weather first.")]})
        if any(c["turn"] == turn for c in battle.weather["changes"]):
            raise ValidationError({"turn": [_("The change roll for that turn is already made.")]})
        current = battle.weather["current"]["weather"]
        with engine_errors("turn"):
            change = m36w.check_weather_change(
                turn, m36w.Season(battle.weather["season"]), m36w.Weather(current), dice
            )
        all_dice_used(dice)
        weather = dict(battle.weather)
        weather["changes"] = [
            *weather["changes"],
            {
                "turn": turn,
                "roll": change.roll,
                "changed": change.changed,
                "weather": str(change.weather),
            },
        ]
        if change.new_roll is not None:
            weather["current"] = jsonable(change.new_roll.to_dict())
        battle.weather = weather
        battle.save(update_fields=["weather"])
        log_roll(
            battle,
            summary=msg(
                "Turn %(t)s weather check: 2d6 = %(r)s → %(w)s",
                t=str(turn),
                r=str(change.roll),
                w=str(change.weather) if change.changed else msg("no change"),
            ),
            actor=actor,
            rule=m36w.CHANGE_RULE,
            explanation=change.explanation,
            dice=dice,
        )
    return battle


def m36_construction_start(*, battle: SkirmishBattle, actor, waiting_days: int) -> SkirmishBattle:
    """The defender's construction points from its units' shovels and tools and the days of
    waiting (VIII.5)."""
    with playing(battle, actor, M1936) as (battle, side):
        _defender_only(side, _("Construction points belong to the defender."))
        if battle.construction:
            raise ValidationError({"waiting_days": [_("The pool is already counted.")]})
        army = m36_army_list(side.snapshot)
        units = {
            f"{i + 1}. {e.label or e.profile}": [
                f"{k}({v})" if v is not None else k
                for k, v in effective_rules(
                    e, army.faction, army.quality, m36_army_options(side.snapshot)
                ).items()
            ]
            for i, e in enumerate(army.entries)
        }
        with engine_errors("waiting_days"):
            read = battle_readings(M1936, battle.readings)
            options = m36c.ConstructionOptions(
                excavation_tools_count=read["excavation_tools_count"],
                shovels_add_to_tools=read["shovels_add_to_tools"],
            )
            pool = m36c.construction_pool(units, waiting_days, options=options)
        battle.construction = jsonable(pool.to_dict())
        battle.save(update_fields=["construction"])
        log_event(
            battle,
            kind=SkirmishEvent.Kind.SETUP,
            summary=msg("Construction points: %(n)s", n=str(pool.balance)),
            actor=actor,
            rule=m36c.RULE,
            data={"explanation": pool.explanation.as_list()},
        )
    return battle


def m36_fortification_buy(
    *, battle: SkirmishBattle, actor, kind: str, count: int
) -> SkirmishBattle:
    with playing(battle, actor, M1936) as (battle, side):
        _defender_only(side, _("Construction points belong to the defender."))
        if not battle.construction:
            raise ValidationError({"kind": [_("Count the construction points first.")]})
        pool = m36c.ConstructionPool.from_dict(battle.construction)
        with engine_errors("kind"):
            pool = m36c.buy_fortification(pool, kind, count)
        battle.construction = jsonable(pool.to_dict())
        battle.save(update_fields=["construction"])
        log_event(
            battle,
            kind=SkirmishEvent.Kind.SETUP,
            summary=msg(
                "Bought %(c)s × %(k)s: %(n)s points left",
                c=str(count),
                k=str(kind),
                n=str(pool.balance),
            ),
            actor=actor,
            rule="M36-VIII.5.4",
        )
    return battle


def m36_battalion_morale(*, battle: SkirmishBattle, actor, states: list[str]) -> SkirmishEvent:
    """Check the actor's battalion morale from its units' states (XI.7)."""
    with playing(battle, actor, M1936) as (battle, side):
        army = m36_army_list(side.snapshot)
        if len(states) != len(army.entries):
            raise ValidationError({"states": [_("Give the state of every unit.")]})
        with engine_errors("states"):
            result = m36m.battalion_morale([m36m.UnitState(s) for s in states])
        return log_event(
            battle,
            kind=SkirmishEvent.Kind.RULE,
            summary=msg(
                "%(p)s battalion morale: %(d)s destroyed, %(pa)s panicked of %(t)s → %(b)s",
                p=str(actor),
                d=str(result.destroyed),
                pa=str(result.panicked),
                t=str(result.total),
                b=msg("the side breaks and retreats") if result.broken else msg("holds"),
            ),
            actor=actor,
            rule=m36m.BATTALION_RULE,
            data={"explanation": result.explanation.as_list(), "broken": result.broken},
        )


def m36_performance(*, battle: SkirmishBattle, actor, value: int, purpose: str) -> SkirmishEvent:
    """The performance roll R, entered by the player (the engine never rolls it)."""
    purpose = (purpose or "").strip()
    if not purpose:
        raise ValidationError({"purpose": [_("Say what the roll is for.")]})
    with playing(battle, actor, M1936) as (battle, _side):
        ex = Explanation()
        with engine_errors("value"):
            r = performance_result(value, purpose=purpose, rule="M36-V", explanation=ex)
        return log_event(
            battle,
            kind=SkirmishEvent.Kind.ROLL,
            summary=msg(
                "Performance roll for %(p)s: R = %(r)s (entered)", p=str(purpose), r=str(r)
            ),
            actor=actor,
            rule="M36-V",
            data={"explanation": ex.as_list()},
        )


def m36_finish(*, battle: SkirmishBattle, actor, winner_index: int | None) -> SkirmishBattle:
    with playing(battle, actor, M1936) as (battle, _side):
        if winner_index not in (None, 0, 1):
            raise ValidationError({"winner": [_("Choose the winner or a draw.")]})
        sides = battle_sides(battle)
        close_battle(battle, winner_index, timezone.now())
        log_event(
            battle,
            kind=SkirmishEvent.Kind.RESULT,
            summary=msg(
                "Battle over: %(w)s",
                w=msg("%(p)s wins.", p=str(sides[winner_index].player))
                if winner_index is not None
                else msg("a draw."),
            ),
            actor=actor,
        )
        record_battle_history(battle, sides, actor)
    return battle


def m36_bog_check(
    *, battle: SkirmishBattle, actor, unit: int, ground: str, value: int | None
) -> SkirmishEvent:
    """A unit of the actor's army moves over `ground`: whether a bog check is due under the
    current weather (IV.7, XV.2), and when it is, the entered performance result R decides
    (bogged on −2 or less)."""
    with playing(battle, actor, M1936) as (battle, side):
        if not battle.weather:
            raise ValidationError(
                {"ground": [_("Roll the weather first: it decides where vehicles may bog down.")]}
            )
        army = m36_army_list(side.snapshot)
        if not isinstance(unit, int) or not 0 <= unit < len(army.entries):
            raise ValidationError({"unit": [_("Choose one of your units.")]})
        if ground not in m36b.Ground.__members__.values():
            raise ValidationError({"ground": [_("Choose the ground.")]})
        entry = army.entries[unit]
        weather = m36w.Weather(battle.weather["current"]["weather"])
        with engine_errors("unit"):
            profile = catalogue().profile(army.faction, entry.profile)
            risk = m36b.bog_risk(profile, m36b.Ground(ground), weather)
        ex = Explanation()
        ex.extend(risk.explanation)
        name = f"{unit + 1}. {entry.label or entry.profile}"
        if not risk.at_risk:
            if value is not None:
                raise ValidationError({"value": [_("No bog check is due here: leave R empty.")]})
            summary = _("%(u)s moves over %(g)s (%(w)s): no bog check") % {
                "u": name,
                "g": ground,
                "w": weather,
            }
            bogged = False
        else:
            if value is None:
                why = "; ".join(st.text for st in risk.explanation if st.value is True)
                raise ValidationError(
                    {"value": [_("A bog check is due (%(why)s): enter R.") % {"why": why}]}
                )
            with engine_errors("value"):
                check = m36b.bog_check(value)
            ex.extend(check.explanation)
            bogged = check.bogged
            summary = _("%(u)s moves over %(g)s (%(w)s): bog check R = %(r)s → %(o)s") % {
                "u": name,
                "g": ground,
                "w": weather,
                "r": check.result,
                "o": _("bogged down") if bogged else _("keeps moving"),
            }
        return log_event(
            battle,
            kind=SkirmishEvent.Kind.ROLL if risk.at_risk else SkirmishEvent.Kind.RULE,
            summary=summary,
            actor=actor,
            rule=m36b.RULE,
            data={"explanation": ex.as_list(), "bogged": bogged, "weather": str(weather)},
        )
