from django.core.management.base import BaseCommand

from review.quality.services import quality_rebuild


class Command(BaseCommand):
    help = (
        "Rebuild every crowd worker's quality profile from their dialogues' logs (the profiles otherwise update as "
        "dialogues end, are scored and are decided in review). Blocks nobody unless --apply-rules is given."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--apply-rules", action="store_true", help="also apply the blocking rules to every worker (see README)"
        )

    def handle(self, *args, apply_rules, **options):
        dialogues, workers = quality_rebuild(apply_rules=apply_rules)
        self.stdout.write(f"Folded {dialogues} dialogues; refreshed {workers} worker profiles.")
