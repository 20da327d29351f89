"""The TCS engine says what it means as message ids with parameters (rules/i18n.py), so the
site can draw every explanation, prompt and refusal in the reader's language."""

import ast
from pathlib import Path

import pytest

from rules.errors import RuleError
from rules.explain import DecisionRequired, Explanation
from rules.i18n import Msg
from rules.tcs import labels
from rules.tcs.clock import Light
from rules.tcs.command_prep import PrepOutcome, read_threshold
from rules.tcs.opsheet import EntryStatus, OpSheetType, SheetStatus, draw_sheet
from rules.tcs.options import DEFAULT_OPTIONS
from tests.rules.tcs.helpers import battalion, oob_of

RULES = Path(__file__).resolve().parents[3] / "rules" / "tcs"


def _texts(tree):
    """The text argument of every Explanation.add, RuleError and Decision in a module."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        if isinstance(f, ast.Attribute) and f.attr == "add" and len(node.args) >= 2:
            yield node.args[1]
        elif isinstance(f, ast.Name) and f.id == "RuleError" and node.args:
            yield node.args[0]
        elif isinstance(f, ast.Name) and f.id == "Decision" and len(node.args) >= 3:
            yield node.args[2]


@pytest.mark.parametrize("path", sorted(RULES.glob("*.py")), ids=lambda p: p.name)
def test_every_engine_text_is_a_message_id(path):
    tree = ast.parse(path.read_text())
    plain = [
        n.lineno
        for n in _texts(tree)
        if isinstance(n, ast.JoinedStr)
        or (isinstance(n, ast.Constant) and isinstance(n.value, str))
    ]
    assert plain == [], f"{path.name}: f-strings or bare strings at lines {plain}"


def test_a_drawn_sheet_explains_itself_with_message_ids_and_state_words():
    oob = oob_of(battalion("1-123"))
    result = draw_sheet("A", {"1-123/1": OpSheetType.ATTACK}, oob, [], rating=3, turn=1)
    assert all(isinstance(step.text, Msg) for step in result.explanation)
    stored = Explanation.from_list(result.explanation.as_list())
    assert [s.text for s in stored] == [s.text for s in result.explanation]


def test_a_refusal_keeps_its_message_and_rule():
    with pytest.raises(RuleError) as err:
        draw_sheet("A", {}, oob_of(battalion("1-123")), [], rating=3)
    assert isinstance(err.value.message, Msg) and err.value.rule == "6.6"
    assert str(err.value) == "[6.6] an op sheet needs units with a mission"


def test_the_threshold_prompt_says_dash_like_the_field_help():
    with pytest.raises(DecisionRequired) as need:
        read_threshold(OpSheetType.ATTACK, 10, 5, Explanation(), None, {}, DEFAULT_OPTIONS)
    prompt = need.value.decision.prompt
    assert isinstance(prompt, Msg)
    assert "“-” when the cell shows no number" in str(prompt) and "null" not in str(prompt)
    assert prompt.params["sheet_type"] == labels.SHEET_TYPES["attack"]


def test_labels_name_every_engine_state():
    assert set(labels.SHEET_TYPES) == {t.value for t in OpSheetType}
    assert set(labels.SHEET_STATES) == {s.value for s in SheetStatus}
    assert set(labels.ENTRY_STATES) == {s.value for s in EntryStatus}
    assert set(labels.LIGHT) == {s.value for s in Light}
    assert set(labels.PREP_OUTCOMES) == {s.value for s in PrepOutcome}
    assert labels.sheet_type("unknown") == "unknown"
