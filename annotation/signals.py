"""What the annotation app tells apps built on it, without knowing them (dialogs listens here).

`person_blocked`: a person was blocked (`annotation.people.services.person_set_blocked`), sent with `person` once the
block
is written; a caller's outer transaction may still be open, so a receiver with side effects defers them to
`transaction.on_commit`.

`demo_accounts_made`: `annotation.demo.demo_load` made (or found) the demo's accounts, sent with their `usernames`
(dialogs qualifies the demo's experts, docs/experts.md).
"""

from django.dispatch import Signal

person_blocked = Signal()
demo_accounts_made = Signal()
