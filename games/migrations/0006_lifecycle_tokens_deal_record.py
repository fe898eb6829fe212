"""Watch tokens apart from invitations, room lifecycle columns, and each round's deal
record (algorithm version and first seat dealt to)."""

import secrets

import games.models
from django.db import migrations, models


def fill_watch_tokens(apps, schema_editor):
    Room = apps.get_model("games", "Room")
    for room in Room.objects.only("pk").iterator():
        Room.objects.filter(pk=room.pk).update(watch_token=secrets.token_urlsafe(32))


def fill_deal_starts(apps, schema_editor):
    # Rounds dealt before this migration used version 1 with today's starts.
    from games.engine import deal_start_offset, get_variant

    Round = apps.get_model("games", "Round")
    for rnd in Round.objects.select_related("match__room").iterator():
        room = rnd.match.room
        offset = deal_start_offset(get_variant(room.variant), room.seat_count)
        rnd.deal_start = (rnd.dealer + offset) % room.seat_count
        rnd.deal_version = 1
        rnd.save(update_fields=["deal_start", "deal_version"])


class Migration(migrations.Migration):
    dependencies = [("games", "0005_watchers")]

    operations = [
        migrations.AddField(
            model_name="room",
            name="watch_token",
            field=models.CharField(max_length=64, null=True),
        ),
        migrations.RunPython(fill_watch_tokens, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="room",
            name="watch_token",
            field=models.CharField(
max_length=64, unique=True, default=games.models.new_token),
        ),
        migrations.AddField(
            model_name="room",
            name="unattended_since",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="room",
            name="due_at",
            field=models.DateTimeField(blank=True, db_index=True, null=True),
        ),
        migrations.AddField(
            model_name="round",
            name="deal_version",
            field=models.PositiveSmallIntegerField(default=1),
        ),
        migrations.AddField(
            model_name="round",
            name="deal_start",
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.RunPython(fill_deal_starts, migrations.RunPython.noop),
    ]
