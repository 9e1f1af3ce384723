"""The settings of the test suite (pytest.ini): the platform's own settings, with a SECRET_KEY of the tests.

The platform refuses to start without a SECRET_KEY unless DEBUG is on, and the tests run with DEBUG off, as a server
does. The key goes into the environment before the settings are read, so the Daphne servers, Celery workers and
`manage.py` runs that the tests start as subprocesses (they inherit the environment) have it too. A key already set
in the environment is kept; so is HTTPS, which is off here unless set.
"""

import os

# The test client, the browser tests' Daphne and the benchmarks' servers speak plain HTTP on this machine: no HTTPS
# redirect, no Secure-only cookies (the production defaults are checked by annotation/tests/test_settings.py).
os.environ.setdefault("HTTPS", "0")
# Test-suite builds run where a test asks for them, not behind every server the tests start (they cost seconds of CPU).
os.environ.setdefault("TEST_SUITES_AUTOBUILD", "0")
# Experts take rooms without practice unless a test sets the rule (a campaign's, or the setting): the stories and the
# servers the tests start make experts that were never onboarded (docs/experts.md).
os.environ.setdefault("EXPERT_PRACTICE_DIALOGUES", "0")
os.environ.setdefault("SECRET_KEY", "wozsql-test-suite-key-not-a-secret-0123456789-abcdefghijklmnopqrstuvwxyz")

from config.settings import *  # noqa: E402,F403
