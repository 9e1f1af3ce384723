from django.core.management.base import BaseCommand

from review.passes.services import review_sync


class Command(BaseCommand):
    help = (
        "Repair: give every reviewable dialogue that has no review row its row. Rows are made when a dialogue ends "
        "and when it is imported; this finds the ones that were missed (ended before review existed, or a failure "
        "after the end committed)."
    )

    def handle(self, *args, **options):
        added = review_sync()
        self.stdout.write(f"{added} dialogue(s) entered review.")
