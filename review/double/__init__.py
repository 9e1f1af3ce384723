"""Blind double annotation and agreement (docs/double_annotation.md).

`models`: a sample drawn for a second labeller, its items (one user turn each, with the first labels kept at the draw
and the second person's labels), and the adjudications. `services`: drawing, labelling, comparing the SQL (outside any
transaction), adjudicating through review's correction service. `selectors`: what each page reads, the agreement
figures and the disagreements, and the one rule that keeps the labeller blind (`blind_refusal`).
"""
