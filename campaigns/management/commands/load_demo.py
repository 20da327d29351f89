"""Load the demo dataset (idempotent): two players, a club and a campaign."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from campaigns.models import Campaign, Club
from campaigns.services import campaign_create, club_create, club_join, side_join

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
                campaign = campaign_create(
                    creator=users["demo"],
                    name="Stalingrad: Mamayev Kurgan",
                    system="cc",
                    template="stalingrad",
                    side_names=["Germans", "Soviets"],
                    visibility=Campaign.Visibility.PUBLIC,
                    club=club,
                    description="Combat Commander Scenario 45, the linked campaign.",
                )
                germans, soviets = campaign.sides.order_by("order")
                side_join(user=users["demo"], side=germans)
                side_join(user=users["rival"], side=soviets)
        self.stdout.write(self.style.SUCCESS(f"Demo data ready: log in as demo / {DEMO_PASSWORD}"))
