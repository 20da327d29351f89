"""Load the demo dataset (idempotent): two players, a club and a Stalingrad campaign.

The campaign's tables are demo placeholders (campaigns/demo/stalingrad_tables.json), marked
as such, so the demo can be played through; a real campaign enters its printed values.
"""

import json
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from campaigns.models import Campaign, Club
from campaigns.services import club_create, club_join, side_join
from campaigns.services.cc_campaigns import cc_campaign_create, cc_tables_update

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
                side_join(user=users["rival"], side=campaign.sides.get(order=1))
                cc_tables_update(
                    campaign=campaign,
                    actor=users["demo"],
                    data=json.loads(DEMO_TABLES.read_text(encoding="utf-8")),
                )
        self.stdout.write(self.style.SUCCESS(f"Demo data ready: log in as demo / {DEMO_PASSWORD}"))
