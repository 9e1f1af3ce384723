"""Review's bonus files as the campaign page's Prolific payments take them (dialogs.crowd.prolific): the bonuses owed
per study, recorded as paid before Prolific is asked to pay them, and the record removed when nothing was paid.
Registered by review's AppConfig: dialogs never reads review. Everything here is the payments page's own rule
(services.py): the same rows, the same digest, the same record."""

from django.db import transaction

from dialogs.crowd.prolific import BonusRecordRefused, OwedBonus, OwedBonusFile
from dialogs.models import Campaign, CrowdPlatform
from review.models import BonusPayout
from review.payments import services as payments


def prolific_owed(campaign: Campaign) -> list[OwedBonusFile]:
    """The campaign's Prolific bonus files owed, one per study (Prolific pays a bulk bonus within one study)."""
    by_study: dict[str, list[payments.BonusRow]] = {}
    for row in payments.owed_rows(payments.campaign_bonuses(campaign), platform=CrowdPlatform.PROLIFIC):
        by_study.setdefault(row.batch_id, []).append(row)
    return [
        OwedBonusFile(
            study_id=study_id,
            rows=tuple(OwedBonus(row.external_id, row.session_id, row.amount) for row in rows),
            digest=payments.bonus_digest(campaign, CrowdPlatform.PROLIFIC, study_id, rows),
            csv_text=payments.prolific_bonus_csv(rows),
        )
        for study_id, rows in sorted(by_study.items())
    ]


def prolific_record(*, campaign: Campaign, study_id: str, digest: str, by) -> int:
    """Record the study's bonus file as paid (the payments page's record, with its checks); the payout's id."""
    try:
        payout = payments.bonus_payout_record(
            campaign=campaign, platform=CrowdPlatform.PROLIFIC, batch_id=study_id, digest=digest, by=by
        )
    except payments.PayoutRefused as refused:
        raise BonusRecordRefused(refused.message) from refused
    return payout.pk


def prolific_unrecord(payout_id: int) -> None:
    """Remove a payout nothing was paid for: its dialogues are owed again (as a delete in the Django admin)."""
    with transaction.atomic():
        BonusPayout.objects.filter(pk=payout_id).delete()
