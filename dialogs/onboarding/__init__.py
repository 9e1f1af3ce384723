"""Experts onboarded and qualified before they take live rooms (docs/experts.md).

`models`: guidelines and their reads, practice goals, practice dialogues, campaigns' rules, qualification decisions.
`guidelines`: versions an admin saves and the expert's confirmation. `practice`: a practice dialogue with the simulated
worker, scored against the gold. `qualification`: the rule, the one check before "ready", an admin's decisions.
`selectors`: what the desk and the admin's pages read. `markdown`: the guidelines' safe Markdown subset.
"""
