"""Recorded bonus payouts in the Django admin: read, and deleted when one was recorded by mistake (docs/crowd.md)."""

from django.contrib import admin

from review.models import BonusPayout, BonusPayoutRow


class BonusPayoutRowInline(admin.TabularInline):
    model = BonusPayoutRow
    extra = 0
    fields = ("external_id", "batch_id", "session_id", "amount", "reason")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(BonusPayout)
class BonusPayoutAdmin(admin.ModelAdmin):
    """What was paid is a record, not a form: nothing is edited or added here (the payments page records payouts).
    Deleting one, after Django's confirmation page, makes its dialogues owed again: the undo of a payout recorded
    for a file that was never paid."""

    list_display = ("id", "campaign", "platform", "batch_id", "total", "paid_by", "paid_at")
    list_filter = ("platform", "campaign")
    search_fields = ("batch_id", "rows__external_id")
    readonly_fields = ("campaign", "platform", "batch_id", "paid_by", "paid_at", "total", "digest", "file_text")
    inlines = [BonusPayoutRowInline]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
