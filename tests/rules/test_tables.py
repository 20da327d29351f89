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
    said = [(str(where), str(what)) for where, what in problems]
    row = "Campaign Forces Table, row"
    assert (f"{row} 1, cost", "enter 0 or more") in said
    assert (f"{row} 2, cost", "enter a whole number") in said
    assert (f"{row} 2, quality", "choose one of: elite, line, green") in said
    assert (f"{row} 2", "extra is not a column of this table") in said
    assert (f"{row} 2, letter", "A appears twice") in said
    assert (f"{row} 3, letter", "fill this in") in said
    assert (f"{row} 3, cost", "enter a whole number") in said


def test_clean_raises_with_all_problems_and_accepts_good_rows():
    with pytest.raises(TableDataError) as err:
        SCHEMA.clean("not a list")
    assert [str(m) for _, m in err.value.problems] == ["Campaign Forces Table is a list of rows"]
    rows = SCHEMA.clean([{"letter": "B", "cost": 2, "quality": "elite"}])
    assert rows == [{"letter": "B", "cost": 2, "quality": "elite"}]
    assert SCHEMA.describe()["fields"][0] == {
        "name": "letter",
        "type": "str",
        "required": True,
        "help": "",
        "label": "letter",
    }
