"""Shared plumbing with no product rule in it: the one JSON reader for files and bodies (`jsonfile.py`), fast JSON
where its volume shows (`jsoncodec.py`), the cyclic garbage collector paused around bulk jobs (`gc_pause.py`),
querysets of one fixed shape compiled once per process (`prepared.py`), and Django's gettext for code that also runs
without Django (`i18n.py`).
"""
