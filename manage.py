#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys


def main():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    if "DEBUG" not in os.environ and "SECRET_KEY" not in os.environ:
        # A development checkout, where the README's commands are typed as written: with neither set the settings would
        # refuse to load (no key of its own), so the tools run as `make` runs them. A server always has its own
        # SECRET_KEY (the settings refuse to start without one), which keeps DEBUG off there.
        os.environ["DEBUG"] = "1"
        print(
            "manage.py: neither DEBUG nor SECRET_KEY is set; running as a development checkout (DEBUG=1)",
            file=sys.stderr,
        )
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
