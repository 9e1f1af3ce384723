from django.core.management.base import BaseCommand

from annotation.demo import demo_load


class Command(BaseCommand):
    help = "Build the demo databases, register them with their goals and create the demo accounts (idempotent)."

    def handle(self, *args, **options):
        summary = demo_load()
        self.stdout.write(self.style.SUCCESS(summary["message"]))
        for account in summary["accounts"]:
            self.stdout.write(f"  {account['role']:<9} {account['username']:<10} password: {account['password']}")
