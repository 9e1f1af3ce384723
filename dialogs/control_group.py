"""Which dialogues get model help: the one rule, applied once when a dialogue is made (docs/model_help.md).

A campaign may hold model help back from a share of its dialogues (`Campaign.model_holdback_percent`), so that
what the help changes can be measured against a control group collected at the same time, by the same people.

- A coin flip per dialogue can leave a small campaign with no control group at all (0 of 10 happens one time in
  three at 10 %). The draw is balanced instead: the campaign's dialogues are numbered as they are drawn
  (`Dialogue.control_slot`), taken in blocks of BLOCK, and each block holds back its share exactly, at places in
  the block chosen in a random order seeded by the campaign and the block. A share that BLOCK does not divide
  (say 25 %) is rounded so that after any number of whole blocks the control group is within one dialogue of it.
- The draw happens inside the pairing's transaction, under a lock on the campaign's row, and a unique constraint
  on (campaign, slot) refuses two dialogues with one slot: two pairings at once cannot both take a place.
- What was drawn is written on the dialogue (`model_help`, `control_slot`) and never changed afterwards.
- Only dialogues made while a model is configured are drawn. Those collected before a model was set up keep
  `model_help` False and no slot: they had no model to hold back, so the comparison leaves them out (it compares
  drawn dialogues only, `review.dataset.model_help`). Dialogues outside any campaign (no campaign, solo sequences,
  query-first items) get help whenever a model is configured and are in neither group.
"""

import random

from django.db.models import Max

from annotation.model_client import model_configured
from dialogs.models import Campaign, Dialogue

# Dialogues per block: small enough that a campaign of ten has its exact share held back.
BLOCK = 10


def held_back_in_block(percent: int, block: int) -> int:
    """How many of block `block`'s BLOCK places are held back at `percent`: the difference of the cumulative share
    rounded (half up) after this block and before it, so the whole never strays more than one from the share."""

    def held_up_to(blocks: int) -> int:
        return (blocks * BLOCK * percent + 50) // 100

    return held_up_to(block + 1) - held_up_to(block)


def slot_held_back(*, campaign_id: int, percent: int, slot: int) -> bool:
    """Whether the campaign's dialogue numbered `slot` (0, 1, ...) falls in the control group at `percent`."""
    block, place = divmod(slot, BLOCK)
    order = list(range(BLOCK))
    # A string seed is hashed the same way by every Python since 3.2: a lab can re-derive any campaign's draw.
    random.Random(f"control-group:{campaign_id}:{block}").shuffle(order)
    return place in order[: held_back_in_block(percent, block)]


def model_help_for(campaign: Campaign | None) -> dict:
    """The fields of a new dialogue that say whether its expert gets model help (`model_help`, and for a campaign's
    dialogue its place in the draw, `control_slot`). Call it inside the transaction that creates the dialogue: it
    locks the campaign's row until that transaction ends."""
    if not model_configured():
        return {"model_help": False}
    if campaign is None:
        return {"model_help": True}
    # The percent is read from the locked row: a change saved a moment ago applies to the next draw. "No key": the
    # lock serialises draws (and a save of the campaign) but not the rows that merely point at the campaign (a crowd
    # worker's assignment made as they join), which would otherwise wait on pairing and could deadlock with it.
    percent = (
        Campaign.objects.select_for_update(no_key=True)
        .values_list("model_holdback_percent", flat=True)
        .get(pk=campaign.pk)
    )
    last = Dialogue.objects.filter(campaign_id=campaign.pk).aggregate(last=Max("control_slot"))["last"]
    slot = 0 if last is None else last + 1
    return {"model_help": not slot_held_back(campaign_id=campaign.pk, percent=percent, slot=slot), "control_slot": slot}
