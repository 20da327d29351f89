"""Load the demo dataset (idempotent): two players, a club with a league, a Stalingrad
campaign, a TCS operation and two rosters.

The campaign's tables are demo placeholders (campaigns/demo/stalingrad_tables.json), marked
as such, so the demo can be played through; a real campaign enters its printed values.
"""

import json
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from campaigns.models import Campaign, Club, League, Roster
from campaigns.services import club_create, club_join, side_join
from campaigns.services.cc_campaigns import cc_campaign_create, cc_tables_update
from campaigns.services.leagues import league_create, result_enter
from campaigns.services.rosters import roster_create
from campaigns.services.tcs import tcs_operation_create

DEMO_TABLES = Path(__file__).resolve().parents[2] / "demo" / "stalingrad_tables.json"

DEMO_PASSWORD = "ledger-demo"
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
                tcs_operation_create(
                    creator=users["demo"],
                    name="Operation Goodwood: the left flank",
                    side_names=["British", "Germans"],
                    ratings=[3, 4],
                    visibility=Campaign.Visibility.PUBLIC,
                    creator_side=0,
                )
        self.stdout.write(self.style.SUCCESS(f"Demo data ready: log in as demo / {DEMO_PASSWORD}"))

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
