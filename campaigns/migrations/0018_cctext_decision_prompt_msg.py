"""A decision keeps its prompt as a message id with parameters (issue 17, finding 8)."""

from django.db import migrations, models

import campaigns.models.bounds


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0017_inbox_notices"),
    ]

    operations = [
        migrations.AddField(
            model_name="decision",
            name="prompt_msg",
            field=models.JSONField(
                blank=True,
                default=dict,
                help_text="The prompt as a message id with parameters, drawn in the reader's language.",
                validators=campaigns.models.bounds.json_size(campaigns.models.bounds.JSON_SMALL),
            ),
        ),
    ]
