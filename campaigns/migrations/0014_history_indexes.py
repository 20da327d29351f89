"""Indexes for the windows of long lists, read newest first by a seek (issue 16): a battle's
log, the log of one kind, a club's battles, a league's results and all results."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("campaigns", "0013_ratings_incremental_standings")]

    operations = [
        migrations.AddIndex(
            model_name="logentry",
            index=models.Index(fields=["campaign", "kind", "seq"], name="log_kind_seq"),
        ),
        migrations.AddIndex(
            model_name="logentry",
            index=models.Index(fields=["battle", "seq"], name="log_battle_seq"),
        ),
        migrations.AddIndex(
            model_name="battle",
            index=models.Index(fields=["created_at", "id"], name="battle_created_id"),
        ),
        migrations.AddIndex(
            model_name="result",
            index=models.Index(
                fields=["league", "played_on", "id"], name="result_league_played_id"
            ),
        ),
        migrations.AddIndex(
            model_name="result",
            index=models.Index(fields=["played_on", "id"], name="result_played_id"),
        ),
    ]
