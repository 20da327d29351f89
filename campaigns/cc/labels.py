"""Decision options as words a player reads: a label for each option value, as a message.

The engine answers with plain values (``raise_own``, ``True``, a Campaign Position code, a
survivor's id); the pages and the API show each with a label built from the decision's key
and what the campaign knows (its sides, its tables, the battle's survivors). Labels are
messages (`rules.i18n.msg`) so a log entry that quotes an answer keeps it and reads in each
reader's language; `option_labels` renders them for the page being drawn.

Every decision family the Combat Commander engines open is covered (`FAMILIES`): fixed
choices have their own words, yes/no questions say what "no" costs, Campaign Positions,
scenarios, Patrols with their price and survivors with what they carry are described; a
family whose options are names (Section Leaders, Patrols) or numbers shows them as they are.
"""

from __future__ import annotations

from typing import Any

from campaigns.cc.engines import TEMPLATES
from campaigns.i18n import say
from rules.i18n import Msg, msg

FIXED = {
    "quality": {
        "raise_own": msg("Raise your own troop quality one level"),
        "lower_opponent": msg("Lower your opponent's troop quality one level"),
        "none": msg("Leave both qualities as they are"),
    },
    "option": {
        "choose": msg("Choose the next scenario yourself"),
        "cede": msg("Let your opponent choose, and roll on your Resource Table"),
    },
}
YES_NO = {True: msg("Yes"), False: msg("No")}
NOTHING_IF_NO = {
    "resource_available": msg("No — not available: you would receive nothing"),
}
"""Yes/no questions whose "no" yields nothing: the option says so before it is chosen."""
NAMED = ("divisional", "rest_day", "fill_ins")
"""Families whose options are formation or leader names, shown as they are."""
NUMBERS = ("rs7", "rs9", "fortify", "german_artillery", "roll")
"""Families answered with a number (listed as options when there are few)."""
FAMILIES = (
    *FIXED,
    "us_armor",
    "german_armor",
    *NOTHING_IF_NO,
    "initiative_holder",
    "position",
    "scenario",
    "purchase",
    "reinforcements",
    "weapons",
    *NAMED,
    *NUMBERS,
)
"""Every decision family the engines open (tests check none is left without words)."""

VICTORY = {
    "decisive": msg("a decisive victory"),
    "tactical": msg("a tactical victory"),
    "four_wins": msg("a victory with four battles won"),
    "substantial": msg("a substantial victory"),
    "narrow": msg("a narrow victory"),
}


EXAMPLE_WORDS = {
    m.id: m
    for m in (
        msg(
            "DEMO PLACEHOLDERS: these costs, Orders, Initiative, Surrender and Divisional Reserve "
            "rows are made up so the demo can be played through. They are NOT the rulebook's "
            "values; replace them with the ones printed in your copy of the game."
        ),
        msg("1 Scout, 3 Rifle squads, 2 Light Mortars"),
        msg(
            "16 Sections for both sides; the rulebook prints no cost, and Orders, Initiative and Surrender only where its examples give them."
        ),
        msg("3 Line squads, 1 MMG"),
        msg("3 Rifle squads"),
        msg("5 Rifle squads"),
        msg("Assault Engineer"),
        msg("Command"),
        msg("Divisional Resources; the rulebook does not say which Section"),
        msg("Engineer"),
        msg("Engineer Section G (inferred: the one starting US Section left)"),
        msg("Guards Rifle"),
        msg("NO-C1.54 and RS.16 examples; Orders not given"),
        msg(
            "NO-C1.54, RS.8 and RS.16 examples; free (never bought); Elite and Green compositions not given"
        ),
        msg("Parachute"),
        msg("Parachute Section E or F (the rulebook does not say which)"),
        msg("Rifle"),
        msg(
            "Rifle Section C or Weapons Section E (the rulebook does not say which); both have Orders 1, Initiative 4, Surrender 3 in the RS.8/RS.16 examples"
        ),
        msg("SMG"),
        msg("ST-C1.5.3 example (battle 1, Line); Elite and Green compositions not given"),
        msg(
            "Sgt Biermann or Sgt Esser (ST-C1.5.4 example; the rulebook does not say which leads C)"
        ),
        msg(
            "Sgt Biermann or Sgt Esser (ST-C1.5.4 example; the rulebook does not say which leads D)"
        ),
        msg(
            "The rulebook does not print this table: its rolls and results (Section Leaders) are not known."
        ),
        msg("The rulebook does not print this table: its rolls and results are not known."),
        msg(
            "The table lists 16 Campaign Patrols plus the Command Patrols; the rulebook names only the 8 starting Patrols and prints no cost, Orders, Initiative or Surrender."
        ),
        msg("Veteran"),
        msg("Veteran Rifle"),
        msg("Veteran Section D (NO-C1.55 and RS.16 examples)"),
        msg("leader from the ST-C1.5.4 example"),
        msg(
            "printed 'Boewn'; Rifle Section C or Weapons Section E (the rulebook does not say which)"
        ),
    )
}
"""What the site's example and demo tables write (the demo banner, kinds, compositions and
notes), as messages (a test keeps this list in step with the files); a player's own words
stay his."""


def example_words(text: str) -> str:
    """A table cell the site's example wrote, in the reader's language."""
    return say(EXAMPLE_WORDS.get(text, text))


SIDE_NAMES = {
    m.id: m
    for m in (
        msg("Germans"),
        msg("Soviets"),
        msg("Americans"),
        msg("British"),
        msg("Axis"),
        msg("Allies"),
    )
}
"""The side names templates and the demo give, as messages; a name a player typed stays his."""


OPTION_WORDS: dict[str, tuple[Msg, Msg]] = {
    "charge_fill_ins": (
        msg("Charge for fill-ins"),
        msg("ST-C1.5.5: also charge +1 VP for each Reinforcement used to complete a Patrol."),
    ),
    "satchels_with_armor": (
        msg("Satchels only with armor"),
        msg(
            "NO-C1.72: the 2 Satchels (+1 VP) and the free Deploy come only with US Armor Support."
        ),
    ),
    "refund_cancelled_armor_vp": (
        msg("Refund the VP of cancelled armor"),
        msg("NO-C1.73: when German armor cancels the US option, the US gets its 4 VP back."),
    ),
    "ground_support_after_cancel": (
        msg("No Ground Support after a cancelled Armor Support"),
        msg("NO-C1.75: a cancelled US Armor Support counts as not available for Ground Support."),
    ),
    "count_phase_one": (
        msg("Count all three phases"),
        msg('Net VP count all three phases (the rulebook: "cumulative over the campaign").'),
    ),
    "freeze_event_vp_after_sudden_death": (
        msg("Events score nothing after the Sudden Death space"),
        msg(
            "E42: once the Time marker reaches the Sudden Death space, a unit an Event "
            "eliminates gives no VP and an Event takes no Objective (the seed's text)."
        ),
    ),
    "retroactive_doubling": (
        msg("A doubling chit revealed late doubles the VP already scored"),
        msg("7.3.2: off, a secret doubling chit only doubles the VP scored after its reveal."),
    ),
    "overstack_cover": (
        msg("Overstacking lowers the Cover"),
        msg("V15: as in rule 8.2 (b), the hex's Cover drops by 1 per figure above 7."),
    ),
    "v19": (
        msg("Suppressed again breaks"),
        msg("V19: a Suppressed unit that is suppressed again breaks and loses its marker."),
    ),
    "veteran_weapons": (
        msg("A Veteran's Weapon fires better too"),
        msg("E44.1: the Veteran's +1 FP and Range also reach the Weapon the unit carries."),
    ),
    "mine_tie_breaks_movers": (
        msg("A moving unit that ties a Mines attack breaks"),
        msg("F103.2: off (the seed), a tie leaves the unit Suppressed and in good order."),
    ),
    "v6_water": (
        msg("Artillery −2 against Marsh and Stream"),
        msg("V6: Artillery impacts in Marsh or Stream hexes get −2."),
    ),
    "v7_short_long": (
        msg("A missed Targeting Roll falls short or long"),
        msg("V7: a miss is not simply lost; it lands short of or beyond the target."),
    ),
    "v7_by_distance": (
        msg("Short or long by the shot's distance"),
        msg("V7: “range greater than 1” read as this shot's distance, not the printed Range."),
    ),
    "tie_by_last_sole_occupant": (
        msg("A Bunker or Pillbox Melee tie goes to its last sole occupant"),
        msg("O16.4.3: off (the seed), the side that began the Melee inside wins the tie."),
    ),
    "allow_eliminating_choice": (
        msg("A retreat may take an eliminating hex by choice"),
        msg("O23.3.5: off (the seed), a unit is eliminated only when no legal hex is open."),
    ),
    "sniper_enemy_only": (
        msg("A Sniper breaks only enemy units"),
        msg("ST-3: off (the core rule 1.9.1.3), the roller may break any unit."),
    ),
}
"""Each campaign option's name and the reading it changes (a test checks every option of
every template has its words)."""


def option_words(name: str) -> tuple[str, str]:
    """An option's label and help in the reader's language."""
    label, help_text = OPTION_WORDS.get(name, (name.replace("_", " ").capitalize(), ""))
    return say(label), say(help_text)


def position_words(position: str | None) -> Msg | str:
    """A battle's position as a player says it: a Campaign Position id ("R2") as printed, a
    Gastadores scenario ("Scenario 33", as `CCTemplate.position` stores it) in words."""
    number = (position or "").removeprefix("Scenario ")
    if number != position and number.isdigit():
        return msg("Scenario %(n)s", n=int(number))
    return position or ""


def side_word(name: str) -> Msg | str:
    """A side's name ("Germans", "Soviets") as a message read in the reader's language, or
    the name as it was typed when it is not one of the site's own."""
    return SIDE_NAMES.get(name, name)


VICTORY_SHORT = {
    "decisive": msg("decisive"),
    "tactical": msg("tactical"),
    "four_wins": msg("four wins"),
    "substantial": msg("substantial"),
    "narrow": msg("narrow"),
}
"""The victory's level as the dashboard names it beside the winner ("Germans — decisive")."""


def victory_word(victory: str | None) -> Msg:
    """The victory as a sentence says it ("a decisive victory")."""
    return VICTORY.get(victory or "", msg("a victory"))


def victory_short(victory: str | None) -> Msg | str:
    return VICTORY_SHORT.get(victory or "", victory or "")


def option_labels(decision) -> list[dict[str, Any]]:
    """Each option of `decision` as {"value": the value to answer with, "label": words}."""
    return [{"value": o, "label": say(label_msg(decision, o))} for o in decision.options]


def answer_words(decision, answer: Any) -> Msg | str:
    """An answer as words (a message): the labels of the chosen options, or the number."""
    chosen = answer if isinstance(answer, list) else [answer]
    if not chosen:
        return msg("nothing")
    words = [label_msg(decision, a) if a in decision.options else str(a) for a in chosen]
    if len(words) == 1:
        return words[0]
    params = {f"a{i}": w for i, w in enumerate(words)}
    return msg(", ".join(f"%({k})s" for k in params), **params)


def answer_text(decision, answer: Any) -> str:
    """`answer_words` in the reader's language."""
    return say(answer_words(decision, answer))


def label_msg(decision, option: Any) -> Msg | str:
    """One option's words: a message, or the option itself when it is a name or a number."""
    family = decision.key.split(".", 1)[0]
    if isinstance(option, bool):
        return YES_NO[option] if option or family not in NOTHING_IF_NO else NOTHING_IF_NO[family]
    fixed = FIXED.get(family, {})
    if option in fixed:
        return fixed[option]
    campaign = decision.campaign
    tpl = TEMPLATES.get(campaign.template)
    if family == "initiative_holder" and tpl is not None:
        names = {f.value: name for name, f in tpl.sides}
        return side_word(names[option]) if option in names else str(option)
    if family == "position" and tpl is not None:
        map_number = tpl.maps.get(option)
        if map_number is None:
            return msg("Campaign Position %(cp)s", cp=option)
        return msg("Campaign Position %(cp)s (map %(map)s)", cp=option, map=map_number)
    if family == "scenario":
        return msg("Scenario %(n)s", n=option)
    if family == "purchase":
        return _priced(campaign.tables, str(option))
    if family in ("reinforcements", "weapons") and decision.battle is not None:
        return _survivor(decision.battle.result or {}, decision.key.split(".", 1)[-1], option)
    return str(option)


def _priced(tables: dict[str, Any], formation: str) -> Msg | str:
    rows = (tables.get("campaign_forces") or {}).get("rows") or []
    cost = next((r.get("cost") for r in rows if r.get("formation") == formation), None)
    if cost is None:
        return formation
    return msg("%(formation)s (costs %(cost)s VP)", formation=formation, cost=cost)


def _survivor(result: dict[str, Any], side: str, unit_id: Any) -> Msg | str:
    units = (result.get("survivors") or {}).get(side) or []
    unit = next((u for u in units if u.get("id") == unit_id), None)
    if unit is None:
        return str(unit_id)
    details: dict[str, Any] = {"d0": str(unit.get("kind") or unit_id)}
    if unit.get("weapon"):
        details["d1"] = msg("with %(weapon)s", weapon=unit["weapon"])
    if unit.get("veteran"):
        details["d2"] = msg("veteran")
    if unit.get("leader_of"):
        details["d3"] = msg("leads %(patrol)s", patrol=unit["leader_of"])
    what = msg(", ".join(f"%({k})s" for k in details), **details)
    return msg("%(what)s — %(id)s", what=what, id=unit_id)
