import secrets

from django.db import migrations, models

import games.models


def fill_replay_ids(apps, schema_editor):
    Round = apps.get_model("games", "Round")
    for rnd in Round.objects.filter(replay_id__isnull=True):
        rnd.replay_id = secrets.token_urlsafe(16)
        rnd.save(update_fields=["replay_id"])


class Migration(migrations.Migration):
    dependencies = [("games", "0003_deal_commitment")]

    operations = [
        migrations.AddField(
            model_name="round",
            name="replay_id",
            field=models.CharField(max_length=32, null=True),
        ),
        migrations.RunPython(fill_replay_ids, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="round",
            name="replay_id",
            field=models.CharField(
                default=games.models.new_replay_id, max_length=32, unique=True
            ),
        ),
    ]
