"""Whether two queries mean the same: distilled test suites (`distil.py` builds one from small databases made by
`small_databases.py`; `builds.py` keeps each hosted database's suite), the comparison on a suite and the search for a
database that tells a pair apart (`compare.py`, `difference_search.py`), and the comparison as the room and review
ask it (`checks.py`). docs/test_suites.md.
"""
