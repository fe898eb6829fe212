from django.core.management.base import BaseCommand

from telemetry.services import purge


class Command(BaseCommand):
    help = "Delete telemetry events older than 30 days (run at least daily)."

    def handle(self, *args, **options):
        self.stdout.write(f"deleted {purge()} events older than the retention window")
