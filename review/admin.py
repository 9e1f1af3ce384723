"""Recorded bonus payouts (docs/crowd.md) and pay statements (docs/pay.md) in the Django admin: read, and deleted when
one was recorded by mistake."""

from django.contrib import admin

from review.models import BonusPayout, BonusPayoutRow, PayStatement, PayStatementItem


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


class PayStatementItemInline(admin.TabularInline):
    model = PayStatementItem
    extra = 0
    fields = ("kind", "object_id", "label", "finished_at", "seconds", "items", "questions", "rate", "basis", "amount")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(PayStatement)
class PayStatementAdmin(admin.ModelAdmin):
    """A statement recorded as paid is a record, as a payout is: read here, never edited. Deleting one (after
    Django's confirmation page) makes its items owed again: the undo of a statement recorded but never paid."""

    list_display = ("id", "person", "start", "end", "totals", "paid_by", "paid_at")
    search_fields = ("person__username",)
    readonly_fields = ("person", "start", "end", "totals", "paid_by", "paid_at", "digest", "csv_text")
    inlines = [PayStatementItemInline]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
