"""Registered databases: registering and importing files (`services.py`), curation's writes (`curation.py`), what a
file holds as people see it (`profile.py`), one page of a table read from a hostile file (`table_page.py`), and the
reads of them (`selectors.py`). docs/curation.md.
"""
