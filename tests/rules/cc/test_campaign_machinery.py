"""The shared campaign machinery: pools and ledgers, decisions, serialisation, tables."""

import json

import pytest

from rules.cc import normandy as no
from rules.cc import stalingrad as st
from rules.cc.campaign import Pool
from rules.cc.campaign_tables import EXAMPLE_FILE, CampaignTables
from rules.cc.common import Faction
from rules.dice import EnteredDice
from rules.errors import RuleError, TableDataError
from tests.rules.cc.campaign_helpers import STALINGRAD_TABLES


def test_campaign_pool_changes_are_ledger_entries_within_0_and_the_cap():
    pool = Pool.full("German Fortification Points", 11)
    entry = pool.change(-4, reason="Fortification OBs", rule="ST-C1.9", battle=2)
    assert (entry.amount, entry.balance, entry.rule, entry.battle) == (-4, 7, "ST-C1.9", 2)
    with pytest.raises(RuleError) as below:
        pool.change(-8, reason="x", rule="ST-C1.9", battle=3)
    with pytest.raises(RuleError) as above:
        pool.change(5, reason="x", rule="ST-C1.9", battle=3)
    assert below.value.rule == above.value.rule == "ST-C1.9"
    assert pool.balance == 7 and len(pool.ledger) == 1


def test_campaign_decision_keeps_its_rolls_through_a_json_round_trip():
    state = st.new_campaign()
    out = st.prepare_forces(state, STALINGRAD_TABLES, EnteredDice([(4, 2)]))
    assert out.decision.key == "purchase.axis"
    assert out.decision.as_dict()["chooser"] == "axis"
    assert out.decision.is_multiple and out.decision.min_choices == 0
    stored = st.StalingradState.from_dict(json.loads(json.dumps(out.state.to_dict())))
    assert stored.pending.rolls["orientation"].faces == (4, 2)
    answers = {"purchase.axis": ["F"], "purchase.allies": []}
    done = st.prepare_forces(stored, STALINGRAD_TABLES, None, answers)
    assert done.decision is None and done.state.current.orientation == 4
    assert done.state.pending.rolls == {}
    assert st.StalingradState.from_dict(done.state.to_dict()) == done.state


def test_campaign_normandy_state_round_trips():
    state = no.new_campaign()
    assert no.NormandyState.from_dict(json.loads(json.dumps(state.to_dict()))) == state


def test_campaign_illegal_answer_types_are_refused():
    with pytest.raises(RuleError):
        st.prepare_forces(
            st.new_campaign(), STALINGRAD_TABLES, EnteredDice([(1, 1)]), {"purchase.axis": "C"}
        )
    with pytest.raises(RuleError):
        st.prepare_forces(
            st.new_campaign(),
            STALINGRAD_TABLES,
            EnteredDice([(1, 1)]),
            {"purchase.axis": ["C", "C"]},
        )


def test_campaign_tables_example_holds_seed_values_and_matches_the_code():
    data = json.loads(EXAMPLE_FILE.read_text(encoding="utf-8"))
    for campaign, module in (("stalingrad", st), ("normandy", no)):
        pools = data[campaign]["regimental_pool"]
        initial = module.INITIAL_POOL if campaign == "stalingrad" else module.REGIMENTAL
        assert {Faction(k): v for k, v in pools.items() if k != "rule"} == initial
        tables = CampaignTables.example(campaign)
        assert tables.divisional is None
        assert all(row.get("cost") is None for row in tables.forces.values())
    assert data["normandy"]["divisional_available"]["allies"] == no.DIVISIONAL[Faction.ALLIES]


def test_campaign_tables_schema_reports_every_problem():
    rows = [{"formation": "C", "side": "germans", "cost": -1}, {"side": "axis"}]
    with pytest.raises(TableDataError) as err:
        CampaignTables.load({"campaign_forces": {"rows": rows}})
    cells = [(p.row, p.column) for p in err.value.found]
    assert cells == [(1, "side"), (1, "cost"), (2, "formation")]
    assert [str(p.text) for p in err.value.found][1] == (
        "Campaign Forces Table, row 1 (C), Cost: enter 0 or more"
    )


def test_campaign_divisional_table_missing_names_the_rule():
    with pytest.raises(RuleError) as err:
        CampaignTables.example("normandy").divisional_result(Faction.AXIS, 7, rule="NO-C3.7")
    assert err.value.rule == "NO-C3.7"
