import pytest

from rules.errors import RuleError, TableDataError
from rules.explain import Explanation
from rules.tables import MISSING, Field, Table, TableSchema, int_range, one_of

TABLE = Table("demo", "T.1", "Demo table", {(2, 6): "low", (7, 12): "high", "gap": MISSING})
SCHEMA = TableSchema(
    "forces",
    "ST-C1.5.1",
    "Campaign Forces Table",
    (
        Field("letter", str),
        Field("cost", int, check=int_range(0)),
        Field("quality", str, check=one_of("elite", "line", "green")),
        Field("note", str, required=False),
    ),
    keyed_by="letter",
)


def test_lookup_records_the_rule_and_value():
    exp = Explanation()
    assert TABLE.lookup_range(8, exp) == "high"
    assert exp.steps[0].rule == "T.1" and exp.steps[0].value == "high"


def test_missing_values_are_never_guessed():
    with pytest.raises(RuleError, match="not given by the rulebook"):
        TABLE.lookup("gap")


def test_schema_lists_every_problem_with_its_path():
    problems = SCHEMA.validate(
        [
            {"letter": "A", "cost": -1, "quality": "line"},
            {"letter": "A", "cost": "3", "quality": "veteran", "extra": 1},
            {"cost": True, "quality": "green"},
        ]
    )
    assert ("row 1.cost", "must be at least 0") in problems
    assert ("row 2.cost", "must be int, not '3'") in problems
    assert ("row 2.quality", "must be one of elite, line, green") in problems
    assert ("row 2.extra", "is not a field of this table") in problems
    assert ("row 2.letter", "duplicate 'A'") in problems
    assert ("row 3.letter", "is required") in problems
    assert ("row 3.cost", "must be int, not True") in problems


def test_clean_raises_with_all_problems_and_accepts_good_rows():
    with pytest.raises(TableDataError) as err:
        SCHEMA.clean("not a list")
    assert err.value.problems == [("", "Campaign Forces Table must be a list of rows")]
    rows = SCHEMA.clean([{"letter": "B", "cost": 2, "quality": "elite"}])
    assert rows == [{"letter": "B", "cost": 2, "quality": "elite"}]
    assert SCHEMA.describe()["fields"][0] == {
        "name": "letter",
        "type": "str",
        "required": True,
        "help": "",
    }
