"""The Parabellum engine speaks in message ids (issue 17, item 1): explanations, decision
prompts, violations and refusals are `rules.i18n.Msg` with parameters, every piece of game
data has a label, and every message fills its placeholders."""

import re

import pytest

from rules.dice import EnteredDice
from rules.errors import RuleError
from rules.explain import DecisionRequired
from rules.i18n import Msg, fill
from rules.parabellum import labels as pbl
from rules.parabellum.battle import CAUSES, DIRECTIVES, PRIORITY_ORDERS
from rules.parabellum.data import ROLES, nations, raw, weapon
from rules.parabellum.evasion import Target
from rules.parabellum.rolls import OUTCOMES
from rules.parabellum.roster import apply_choice, new_roster, validate_roster
from rules.parabellum.shooting import Shot, resolve_shot, resolve_shot_evasion, shot_modifier

PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def placeholders_filled(m: Msg) -> bool:
    """Every placeholder of the message (and its nested messages) has a parameter."""
    names = set(PLACEHOLDER.findall(m.id)) | set(PLACEHOLDER.findall(m.plural))
    nested = [v for v in m.params.values() if isinstance(v, Msg)]
    return names <= set(m.params) and all(placeholders_filled(v) for v in nested)


def test_every_piece_of_game_data_has_a_label():
    data = raw()
    assert set(ROLES) == set(pbl.ROLES)
    assert set(nations()) == set(pbl.NATIONS)
    assert set(data["weapon_rules"]) == set(pbl.WEAPON_RULES)
    assert set(data["specialists"]) == set(pbl.SPECIALISTS)
    assert set(data["experience"]) - {"ref"} == set(pbl.EXPERIENCES)
    assert set(CAUSES) == set(pbl.CAUSES) and set(OUTCOMES) == set(pbl.OUTCOMES)
    assert set(PRIORITY_ORDERS) == set(pbl.PRIORITY_ORDERS)
    assert set(DIRECTIVES) == set(pbl.DIRECTIVES)
    options = {
        o["id"]
        for n in data["nations"].values()
        for s in n["squads"].values()
        for o in s["options"]
    }
    assert options <= set(pbl.OPTIONS)
    keys = {k for n in data["nations"].values() for k in n["weapons"]}
    assert keys <= set(pbl.WEAPONS)


def test_soldier_names_are_words():
    assert str(pbl.soldier_name("mg_assistant-1")) == "MG assistant 1"
    assert str(pbl.soldier_name("officer")) == "Officer"
    assert str(pbl.soldier_name("rifleman-3")) == "Rifleman 3"
    assert pbl.soldier_name("replacement-x") == "replacement-x"


def test_seed_spellings_get_an_english_label():
    assert str(pbl.model_label(weapon("USA", "carbine").model)) == "M1 Carbine"
    assert str(pbl.model_label(weapon("USA", "grenade_launcher").model)) == "M7 grenade launcher"
    assert str(pbl.PRIORITY_ORDERS[1]) == "Take the enemy line"


def test_shot_explanation_is_made_of_messages_with_parameters():
    dice = EnteredDice([(3, 5, 6), (2, 3, 5)])
    result = resolve_shot(Shot(weapon("GER", "rifle"), 30, cover="heavy"), dice)
    evasion = resolve_shot_evasion(result, Target("rifleman-3", hit_the_dirt=False), dice)
    steps = [*result.explanation, *evasion.explanation]
    assert steps and all(isinstance(s.text, Msg) for s in steps)
    assert all(placeholders_filled(s.text) for s in steps)
    cover = next(s.text for s in steps if s.rule == "6.2.5")
    assert cover.id == "target in %(cover)s cover" and str(cover) == "target in heavy cover"
    stored = [s.as_dict() for s in steps]
    assert all("msg" in s and s["text"] == fill(s["text"], {}) for s in stored)


def test_decision_prompt_is_a_message_naming_the_soldier():
    result = resolve_shot(Shot(weapon("GER", "rifle"), 25), EnteredDice([(3, 4, 5)]))
    with pytest.raises(DecisionRequired) as err:
        resolve_shot_evasion(result, Target("rifleman-3"), EnteredDice([]))
    prompt = err.value.decision.prompt
    assert isinstance(prompt, Msg) and placeholders_filled(prompt)
    assert "Rifleman 3" in str(prompt) and "rifleman-3" not in str(prompt)


def test_refusals_are_messages_with_the_rule():
    with pytest.raises(RuleError) as err:
        shot_modifier(Shot(weapon("GER", "rifle"), 80))
    assert isinstance(err.value.message, Msg) and err.value.rule == "6.2.1"
    assert str(err.value).startswith("[6.2.1] target at 80 cm is beyond the 50 cm")


def test_specialist_violation_reads_as_a_sentence():
    roster = apply_choice(new_roster("GER/grenadier"), "officer", "specialist", "medic")
    report = validate_roster(roster)
    texts = [str(v.message) for v in report.violations if v.code == "specialist_eligible"]
    assert texts == [
        "Officer cannot become a specialist: only riflemen can "
        "(not the officer, the NCO or the MG team)"
    ]
    assert all(isinstance(v.message, Msg) for v in report.violations)


def test_option_limit_uses_a_plural_message():
    roster = new_roster("GER/grenadier")
    for sid in ("rifleman-1", "rifleman-2", "rifleman-3"):
        roster = apply_choice(roster, sid, "weapon", "assault_rifle")
    (limit,) = [v for v in validate_roster(roster).violations if v.code == "limit:assault_rifle"]
    assert limit.message.plural and limit.message.n == 2
    assert "allows 2 soldiers to take the assault rifle" in str(limit.message)
    assert "soldier(s)" not in str(limit.message)
