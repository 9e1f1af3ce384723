"""Pay for the lab's own people: experts, annotators and reviewers paid by the hour or per item (docs/pay.md)."""
