"""English the platform writes for people: how a schema's names read (`english.py`), the expert's response drafted
from a shared result (`response_drafts/`), and the suggestion of the worker's next question (`suggestions/`).
docs/chase.md.
"""
