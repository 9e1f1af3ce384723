"""People: who may do what (`roles.py`, the one `can()`), accounts and blocking (`services.py`, `selectors.py`), and
sign-in throttling (`throttle.py`).
"""
