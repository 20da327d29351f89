from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0002_battles_decisions"),
    ]

    operations = [
        migrations.AddField(
            model_name="battle",
            name="state_before",
            field=models.JSONField(
                blank=True,
                default=dict,
                help_text=(
                    "The campaign state when the result was entered, so a correction can redo it."
                ),
            ),
        ),
    ]
