"""The cells of every CSV the platform writes: text a spreadsheet would evaluate arrives as text, numbers as numbers."""

import csv
import io

import pytest

from review.payments.csv_files import csv_text, spreadsheet_cell


@pytest.mark.parametrize(
    "written",
    ['=HYPERLINK("http://x","y")', "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(A1:A9)", "\t=1+1", "\r=1+1", "-", "=1"],
)
def test_a_cell_a_spreadsheet_would_run_gets_a_quote(written):
    assert spreadsheet_cell(written) == "'" + written


@pytest.mark.parametrize("number", ["-3", "-0.50", "+7", "-1e3", "-.5"])
def test_a_signed_number_stays_a_number(number):
    assert spreadsheet_cell(number) == number


def test_other_cells_are_written_as_they_are():
    text = csv_text([["Paula", -3, 0.5, "a = b", ""]], header=["name", "delta", "amount", "note", "empty"])
    assert list(csv.reader(io.StringIO(text))) == [
        ["name", "delta", "amount", "note", "empty"],
        ["Paula", "-3", "0.5", "a = b", ""],
    ]
