from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from annotation.models import Role
from annotation.people.services import person_create


class Command(BaseCommand):
    help = "Create an account with a role; prints a generated password when none is given."

    def add_arguments(self, parser):
        parser.add_argument("--role", required=True, choices=Role.values)
        parser.add_argument("--username", required=True)
        parser.add_argument("--password", default=None)
        parser.add_argument("--email", default="")

    def handle(self, *args, role, username, password, email, **options):
        try:
            user, used_password = person_create(username=username, role=role, password=password, email=email)
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages)) from exc
        self.stdout.write(self.style.SUCCESS(f"Created {user.username} with the role {user.role}."))
        if not password:
            self.stdout.write(f"Password: {used_password}")
