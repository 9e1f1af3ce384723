"""Fixtures for the annotation tests, and the conformance match rates shown at the end of the run."""

import pytest

_CONFORMANCE_RATES = pytest.StashKey[list]()


@pytest.fixture(scope="session")
def conformance_rates(request):
    """A list that conformance tests append "label: matched/total" lines to; they are printed in the summary."""
    return request.config.stash.setdefault(_CONFORMANCE_RATES, [])


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    # Printed whatever -s/-q say, so the match rate of every release file is visible in CI logs.
    rates = config.stash.get(_CONFORMANCE_RATES, None)
    if rates:
        terminalreporter.write_sep("-", "Spider encoding conformance (matched/total)")
        for line in rates:
            terminalreporter.write_line(line)
