"""Load the demo dataset (idempotent): two players, a club with a league, a Stalingrad
campaign, a second one whose first battle is being played with the battle assistant, a TCS
operation, rosters, and a Parabellum and a "1936" battle in play.

The campaigns' tables, the battle's counter table and the TCS operation's charts are demo
placeholders (campaigns/demo/stalingrad_tables.json, DEMO_COUNTERS, campaigns/demo/
tcs_charts.json), marked as such, so the demo can be played through; a real campaign enters
its printed values.
"""

import json
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from campaigns.models import Battle, Campaign, Club, League, Roster, SkirmishBattle
from campaigns.services import club_create, club_join, side_join
from campaigns.services.cc_battle import (
    battle_act,
    battle_counters_set,
    battle_tracker_start,
    read_counters,
)
from campaigns.services.cc_campaigns import cc_campaign_create, cc_tables_update
from campaigns.services.cc_engine import cc_advance, decision_answer
from campaigns.services.leagues import league_create, result_enter
from campaigns.services.rosters import roster_create, roster_edit
from campaigns.services.skirmish import (
    m36_fire,
    m36_initiative,
    m36_units_setup,
    pb_act,
    pb_activate,
    pb_choose_first,
    pb_finish_phase,
    skirmish_create,
    skirmish_join,
    skirmish_tactical,
)
from campaigns.services.skirmish.m36_battle import FireInput
from campaigns.services.tcs import (
    FireOrder,
    tcs_fire_resolve,
    tcs_oob_import,
    tcs_operation_create,
    tcs_operation_start,
)
from campaigns.services.tcs.charts import tcs_charts_update
from campaigns.tcs.combat_lines import parse_firers, parse_targets
from rules.dice import ServerDice
from rules.tcs.fire_tables import Terrain

DEMO_TABLES = Path(__file__).resolve().parents[2] / "demo" / "stalingrad_tables.json"

TCS_CHARTS = Path(__file__).resolve().parents[2] / "demo" / "tcs_charts.json"
TCS_HEADER = "type,id,name,formation,category,steps,morale,battalion,track\n"
TCS_BRITISH = TCS_HEADER + (
    "formation,8RB,8th Rifle Brigade,,,0,battalion,yes,\n"
    "unit,A/8RB,,8RB,infantry,5,4,,\n"
    "unit,B/8RB,,8RB,infantry,5,4,,\n"
    "unit,MG/8RB,,8RB,heavy_weapon,2,3,,\n"
)
TCS_GERMANS = TCS_HEADER + (
    "formation,I-125,I/125 Panzergrenadier,,,0,battalion,yes,\n"
    "unit,1/I-125,,I-125,infantry,5,4,,\n"
    "unit,MG/I-125,,I-125,heavy_weapon,2,3,,\n"
)
DEMO_PASSWORD = "ledger-demo"
BATTLE_DEMO = "Stalingrad: Hill 102, a battle in play"
PB_DEMO = "Vernon bridgehead: a Parabellum battle in play"
M36_DEMO = "Teruel: a 1936 battle in play"
SIDES = ("fp", "range", "move", "morale", "command")


def _counter(nationality, name, kind, vp, good, broken):
    row = {"nationality": nationality, "name": name, "kind": kind, "vp": vp}
    row |= dict(zip(SIDES, good, strict=False))
    return row | {f"broken_{k}": v for k, v in zip(SIDES, broken, strict=False)}


# DEMO PLACEHOLDERS, not the values printed on any real counter
DEMO_COUNTERS = {
    "units": [
        _counter("German (demo)", "Rifle Squad (demo)", "squad", 2, (5, 5, 4, 7), (3, 4, 4, 6)),
        _counter("German (demo)", "Lt. Demo", "leader", 1, (1, 1, 6, 9, 1), (0, 0, 6, 7, 0)),
        _counter("Soviet (demo)", "Guards Squad (demo)", "squad", 2, (6, 4, 4, 6), (4, 3, 4, 7)),
    ],
    "weapons": [
        {"nationality": "German (demo)", "name": "MG (demo)", "fp": 4, "range": 10, "move": -1,
         "fix": "1-2", "elim": "6"},
    ],
}  # fmt: skip
DEMO_UNITS = (
    ("axis", "w1", "MG (demo)", "weapon", ""),
    ("axis", "g1", "Rifle Squad (demo)", "squad", "w1"),
    ("axis", "g2", "Rifle Squad (demo)", "squad", ""),
    ("axis", "l1", "Lt. Demo", "leader", ""),
    ("allies", "r1", "Guards Squad (demo)", "squad", ""),
    ("allies", "r2", "Guards Squad (demo)", "squad", ""),
)
DEMO_USERS = ("demo", "rival")


class Command(BaseCommand):
    help = "Create demo users, a club and a campaign (safe to run again)."

    def handle(self, *args, **options):
        User = get_user_model()
        with transaction.atomic():
            users = {}
            for name in DEMO_USERS:
                user, created = User.objects.get_or_create(username=name)
                if created:
                    user.set_password(DEMO_PASSWORD)
                    user.save()
                users[name] = user
            club = Club.objects.filter(slug="demo-wargames-club").first() or club_create(
                creator=users["demo"],
                name="Demo Wargames Club",
                description="A club to try the site with.",
            )
            club_join(user=users["rival"], club=club)
            if not Campaign.objects.filter(name="Stalingrad: Mamayev Kurgan").exists():
                campaign = cc_campaign_create(
                    creator=users["demo"],
                    name="Stalingrad: Mamayev Kurgan",
                    template="stalingrad",
                    visibility=Campaign.Visibility.PUBLIC,
                    club=club,
                    creator_side=0,
                    description=(
                        "Combat Commander Scenario 45, the linked campaign. Its tables hold demo "
                        "placeholders, not the rulebook's values."
                    ),
                )
                side_join(
                    user=users["rival"], side=campaign.sides.get(order=1), seated_by=users["demo"]
                )
                cc_tables_update(
                    campaign=campaign,
                    actor=users["demo"],
                    data=json.loads(DEMO_TABLES.read_text(encoding="utf-8")),
                )
            if not Campaign.objects.filter(name=BATTLE_DEMO).exists():
                self._battle_in_play(club, users)
            if not League.objects.filter(club=club).exists():
                self._league(club, users)
            if not Roster.objects.exists():
                roster_create(
                    owner=users["demo"],
                    system="parabellum",
                    name="Grenadiers of the 71st",
                    squad_type="GER/grenadier",
                )
                roster_create(
                    owner=users["rival"],
                    system="m1936",
                    name="Columna Durruti",
                    faction="Republicanos",
                    role="Defensor",
                    quality="Regulares",
                    size="Pequeña",
                )
            if not Campaign.objects.filter(system="tcs").exists():
                self._tcs_in_play(users)
            if not SkirmishBattle.objects.filter(title=PB_DEMO).exists():
                self._parabellum_in_play(users)
            if not SkirmishBattle.objects.filter(title=M36_DEMO).exists():
                self._m36_in_play(users)
        self.stdout.write(self.style.SUCCESS(f"Demo data ready: log in as demo / {DEMO_PASSWORD}"))

    def _parabellum_in_play(self, users):
        """A Parabellum battle in its first turn's activations: the demo's grenadiers hold
        the initiative and one of them is activated, 1 PA spent on a cautious move."""
        demo, rival = users["demo"], users["rival"]
        grenadiers = Roster.objects.filter(owner=demo, system="parabellum").first()
        easy = roster_create(
            owner=rival, system="parabellum", name="Easy Company", squad_type="USA/rifleman"
        )
        battle = skirmish_create(
            creator=demo,
            roster=grenadiers,
            role="attacker",
            opponent=rival,
            mode="simple",
            title=PB_DEMO,
        )
        skirmish_join(battle=battle, actor=rival, roster=easy)
        skirmish_tactical(battle=battle, actor=demo, turn=1, blue=(4, 3))
        pb_choose_first(battle=battle, actor=demo, first=0)
        pb_finish_phase(battle=battle, actor=demo)
        pb_finish_phase(battle=battle, actor=rival)
        pb_choose_first(battle=battle, actor=demo, first=0)
        pb_activate(battle=battle, actor=demo, soldier="0:rifleman-1", via="blue")
        pb_act(battle=battle, actor=demo, action="cautious", distance_cm=12)

    def _m36_in_play(self, users):
        """A "1936" battle in its first attack phase: both sides' units set up, the
        initiative decided, the Nationalist section has fired once."""
        demo, rival = users["demo"], users["rival"]
        column = roster_create(
            owner=demo,
            system="m1936",
            name="Columna de Navarra",
            faction="Nacionales",
            role="Atacante",
            quality="Regulares",
            size="Pequeña",
        )
        for profile in ("Sección Infantería de Línea", "Oficial", "Panzer I Ausf A/B"):
            column = roster_edit(
                roster=column, actor=demo, edit={"op": "add_unit", "profile": profile}
            )
        durruti = Roster.objects.filter(owner=rival, system="m1936").first()
        for profile in ("Sección Infantería de Línea", "Oficial", "T-26 B"):
            durruti = roster_edit(
                roster=durruti, actor=rival, edit={"op": "add_unit", "profile": profile}
            )
        battle = skirmish_create(
            creator=demo, roster=column, role="attacker", opponent=rival, title=M36_DEMO
        )
        skirmish_join(battle=battle, actor=rival, roster=durruti)
        m36_units_setup(battle=battle, actor=demo, bases={"0": 3}, tokens={}, decoys=[])
        m36_units_setup(battle=battle, actor=rival, bases={"0": 3}, tokens={}, decoys=[])
        m36_initiative(battle=battle, actor=demo, total_a=9, total_b=7, dice=ServerDice())
        shot = FireInput(firer="0", target="0", band="media", bases=3, performance=0, cover="Muro")
        m36_fire(
            battle=battle,
            actor=demo,
            shot=shot,
            reaction=False,
            in_command=True,
            panic_friends=[],
            dice=ServerDice(),
        )

    def _tcs_in_play(self, users):
        """A TCS operation in play: both orders of battle, the demo's placeholder charts,
        and a German fire attack on a British stack waiting for the demo player to apply."""
        op = tcs_operation_create(
            creator=users["demo"],
            name="Operation Goodwood: the left flank",
            side_names=["British", "Germans"],
            ratings=[3, 4],
            visibility=Campaign.Visibility.PUBLIC,
            creator_side=0,
            description=(
                "A TCS operation in play. Its charts hold demo placeholders, not the "
                "rulebook's values: a real operation enters its printed charts."
            ),
        )
        british, germans = op.sides.order_by("order")
        side_join(user=users["rival"], side=germans, seated_by=users["demo"])
        tcs_oob_import(side=british, actor=users["demo"], text=TCS_BRITISH)
        tcs_oob_import(side=germans, actor=users["rival"], text=TCS_GERMANS)
        tcs_operation_start(campaign=op, actor=users["demo"])
        charts = json.loads(TCS_CHARTS.read_text())
        for chart in ("morale", "fire", "shifts"):
            tcs_charts_update(campaign=op, actor=users["demo"], chart=chart, data=charts[chart])
        order = FireOrder(
            kind="area",
            firers=parse_firers("1/I-125; infantry; 4; 5; 3\nMG/I-125; mg; 2; 2; 4"),
            targets=parse_targets("A/8RB; 5; A; move"),
            terrain=Terrain.OPEN,
        )
        tcs_fire_resolve(side=germans, actor=users["rival"], order=order, rolls=[64])

    def _battle_in_play(self, club, users):
        """A campaign set up to its first battle, tracked with every unit: a fire attack
        computed from the counter table and the Defense roll it forces already resolved."""
        demo, rival = users["demo"], users["rival"]
        campaign = cc_campaign_create(
            creator=demo,
            name=BATTLE_DEMO,
            template="stalingrad",
            visibility=Campaign.Visibility.PUBLIC,
            club=club,
            creator_side=0,
            description="The battle assistant at work. Its tables and counters are demo "
            "placeholders, not the rulebook's values.",
        )
        side_join(user=rival, side=campaign.sides.get(order=1), seated_by=demo)
        cc_tables_update(
            campaign=campaign,
            actor=demo,
            data=json.loads(DEMO_TABLES.read_text(encoding="utf-8")),
        )
        cc_advance(campaign_id=campaign.pk, actor=demo)
        while open_ := list(campaign.decisions.filter(status="open").select_related("chooser")):
            decision = open_[0]
            actor = rival if decision.chooser and decision.chooser.order == 1 else demo
            answer = [] if decision.is_multiple else 0 if decision.is_number else None
            decision_answer(
                decision=decision,
                actor=actor,
                answer=decision.options[0] if answer is None else answer,
            )
        campaign.refresh_from_db()
        battle = Battle.objects.get(campaign=campaign, number=campaign.state["battle"])
        battle_tracker_start(
            battle=battle,
            actor=demo,
            mode="full",
            time=0,
            sudden_death=4,
            initiative="allies",
            first_player="axis",
            postures={"axis": "attack", "allies": "defend"},
            surrender={"axis": 6, "allies": 5},
        )
        battle_counters_set(battle=battle, actor=demo, counters=read_counters(data=DEMO_COUNTERS))
        for side, unit_id, name, kind, weapon in DEMO_UNITS:
            nationality = "German (demo)" if side == "axis" else "Soviet (demo)"
            battle_act(
                battle=battle,
                actor=demo if side == "axis" else rival,
                procedure="register",
                inputs={"side": side, "unit_id": unit_id, "name": name, "kind": kind}
                | {"weapon": weapon, "nationality": nationality},
            )
        pieces = "g1; 4; leader l1\nw1; 4\ng2; 4"
        battle_act(battle=battle, actor=demo, procedure="group_fire", inputs={"pieces": pieces},
                   entered="4 3")  # fmt: skip
        battle_act(
            battle=battle,
            actor=rival,
            procedure="unit_defense",
            inputs={"attack_total": 15, "unit": "r1", "terrain": "woods"},
            entered="2 3",
        )

    def _league(self, club, users):
        """A Combat Commander league with two played results (standings and ratings show)."""
        league = league_create(
            club=club,
            actor=users["demo"],
            name="Autumn ladder",
            season="2026",
            system="cc",
        )
        for day, scenario, outcome in (
            ("2026-09-12", "Fat Lipki", "a"),
            ("2026-10-03", "Hedgerow Hell", "b"),
            ("2026-10-24", "Fat Lipki", "a"),
        ):
            result_enter(
                league=league,
                actor=users["demo"],
                played_on=day,
                scenario=scenario,
                side_a="Germans",
                side_b="Soviets",
                outcome=outcome,
                team_a="demo",
                team_b="rival",
            )
