"""The players' records by league and scenario, filled from the results there are, and the
ratings' thinned histories for the player page's charts (issue 16; the next rating update
fills the charts)."""

import django.core.validators
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models
from django.db.models import Count, F, Q


def fill(apps, schema_editor):
    ResultPlayer = apps.get_model("campaigns", "ResultPlayer")
    ScenarioRecord = apps.get_model("campaigns", "ScenarioRecord")
    rows = (
        ResultPlayer.objects.filter(result__status="active")
        .values("user_id", "result__league_id", "result__scenario")
        .annotate(
            games=Count("pk"),
            wins=Count("pk", filter=Q(result__outcome=F("team"))),
            draws=Count("pk", filter=Q(result__outcome="draw")),
        )
        .order_by()
    )
    ScenarioRecord.objects.bulk_create(
        (
            ScenarioRecord(
                league_id=r["result__league_id"],
                user_id=r["user_id"],
                scenario=r["result__scenario"],
                games=r["games"],
                wins=r["wins"],
                draws=r["draws"],
                losses=r["games"] - r["wins"] - r["draws"],
            )
            for r in rows.iterator()
        ),
        batch_size=5000,
    )


def counter():
    return [
        django.core.validators.MinValueValidator(0),
        django.core.validators.MaxValueValidator(2147483647),
    ]


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0014_history_indexes"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="ScenarioRecord",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("scenario", models.CharField(blank=True, max_length=120)),
                ("games", models.IntegerField(default=0, validators=counter())),
                ("wins", models.IntegerField(default=0, validators=counter())),
                ("draws", models.IntegerField(default=0, validators=counter())),
                ("losses", models.IntegerField(default=0, validators=counter())),
                (
                    "league",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="campaigns.league",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={"ordering": ["user", "league", "scenario"]},
        ),
        migrations.AddConstraint(
            model_name="scenariorecord",
            constraint=models.UniqueConstraint(
                fields=("user", "league", "scenario"), name="one_scenario_record"
            ),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
        migrations.AddField(
            model_name="rating",
            name="chart",
            field=models.JSONField(
                blank=True,
                default=list,
                help_text="The rating history thinned to a few evenly spaced [step, value] points, kept by the rating update for the player page's chart.",
            ),
        ),
    ]
