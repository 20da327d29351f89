"""Public numbers for log entries and skirmish events: counting public entries only, so the
numbering people see never betrays another side's private entry."""

from django.db import migrations, models


def number_public(apps, schema_editor):
    for model, parent in (("LogEntry", "campaign_id"), ("SkirmishEvent", "battle_id")):
        Model = apps.get_model("campaigns", model)
        counters: dict[int, int] = {}
        changed = []
        rows = Model.objects.filter(private_to__isnull=True).order_by(parent, "seq")
        for row in rows.only("pk", parent, "seq").iterator():
            key = getattr(row, parent)
            counters[key] = counters.get(key, 0) + 1
            row.number = counters[key]
            changed.append(row)
        Model.objects.bulk_update(changed, ["number"], batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [("campaigns", "0010_campaign_stopped_reason")]

    operations = [
        migrations.AddField(
            model_name="logentry",
            name="number",
            field=models.PositiveIntegerField(
                blank=True,
                help_text="The number people see: public entries only, so that the numbering "
                "shows no gap where a side's private entry was written (empty for private "
                "entries).",
                null=True,
            ),
        ),
        migrations.AlterField(
            model_name="logentry",
            name="seq",
            field=models.PositiveIntegerField(
                help_text="Order of writing; never shown (see number)."
            ),
        ),
        migrations.AddField(
            model_name="skirmishevent",
            name="number",
            field=models.PositiveIntegerField(
                blank=True,
                help_text="The number people see: public events only (empty for private ones).",
                null=True,
            ),
        ),
        migrations.AlterField(
            model_name="skirmishevent",
            name="seq",
            field=models.PositiveIntegerField(
                help_text="Order of writing; never shown (see number)."
            ),
        ),
        migrations.RunPython(number_public, migrations.RunPython.noop),
    ]
