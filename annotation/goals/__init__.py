"""Reference goals: writes and reads (`services.py`, `selectors.py`), goal queries sampled from a schema (`sampler.py`)
and the rules a sample passes (`rules.py`), generation as a background job (`generation.py`), and a sampled query's
operation tree read as SQL and as a plan (`operation_tree.py`, `tree_plan.py`). docs/goals.md.
"""
