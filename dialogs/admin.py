from django import forms
from django.contrib import admin

from dialogs.crowd.campaigns import campaign_check
from dialogs.models import Campaign, CrowdAssignment, CrowdWorker, Dialogue, Event, LobbyEntry


class EventInline(admin.TabularInline):
    model = Event
    extra = 0
    fields = ("seq", "kind", "author", "author_role", "payload", "created_at")
    readonly_fields = fields
    can_delete = False
    ordering = ("seq",)

    def has_add_permission(self, request, obj=None):
        # The log is append-only through the services: an edit here would break the sequence guarantees.
        return False


@admin.register(Dialogue)
class DialogueAdmin(admin.ModelAdmin):
    list_display = ("id", "database", "worker", "expert", "status", "incomplete", "score", "last_seq", "created_at")
    list_filter = ("status", "incomplete", "campaign", "database")
    search_fields = ("worker__username", "expert__username", "goal__question")
    readonly_fields = ("last_seq", "completion_code", "created_at", "ended_at")
    inlines = [EventInline]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ("dialogue", "seq", "kind", "author", "created_at")
    list_filter = ("kind",)
    readonly_fields = ("dialogue", "seq", "kind", "author", "author_role", "client_id", "payload", "created_at")

    def has_add_permission(self, request):
        return False


@admin.register(LobbyEntry)
class LobbyEntryAdmin(admin.ModelAdmin):
    list_display = ("person", "role", "outcome", "joined_at", "ended_at", "dialogue", "completion_code")
    list_filter = ("role", "outcome")


class CampaignAdminForm(forms.ModelForm):
    """Checks a campaign with the same rules as the campaign pages (dialogs.crowd.campaigns.campaign_check)."""

    class Meta:
        model = Campaign
        fields = (
            "name",
            "databases",
            "goals",
            "target_per_goal",
            "hardness_mix",
            "opens_at",
            "closes_at",
            "completion_url",
            "bonus_min_questions",
            "bonus_amount",
            "bonus_reason",
            "bonus_after_review",
        )

    def clean(self):
        cleaned = super().clean()
        names = ["name", "target_per_goal", "opens_at", "bonus_min_questions", "bonus_amount"]
        if all(cleaned.get(name) is not None for name in names):
            campaign_check(
                campaign=self.instance if self.instance.pk else None,
                databases=list(cleaned.get("databases") or []),
                goals=list(cleaned.get("goals") or []),
                hardness_mix=cleaned.get("hardness_mix") or {},
                closes_at=cleaned.get("closes_at"),
                completion_url=cleaned.get("completion_url") or "",
                bonus_reason=cleaned.get("bonus_reason") or "",
                bonus_after_review=bool(cleaned.get("bonus_after_review")),
                **{name: cleaned[name] for name in names},
            )
        return cleaned


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    form = CampaignAdminForm
    list_display = ("name", "opens_at", "closes_at", "target_per_goal", "bonus_amount", "created_at")
    search_fields = ("name",)
    filter_horizontal = ("databases", "goals")
    readonly_fields = ("join_token", "created_by", "created_at")


@admin.register(CrowdWorker)
class CrowdWorkerAdmin(admin.ModelAdmin):
    """Read-only: a binding is made by a join link only (docs/crowd.md, "Security")."""

    list_display = ("external_id", "platform", "person", "created_at")
    list_filter = ("platform",)
    search_fields = ("external_id", "person__username")
    readonly_fields = ("platform", "external_id", "person", "created_at")

    def has_add_permission(self, request):
        return False


@admin.register(CrowdAssignment)
class CrowdAssignmentAdmin(admin.ModelAdmin):
    list_display = ("crowd_worker", "campaign", "batch_id", "session_id", "arrived_at", "last_arrived_at")
    list_filter = ("campaign",)
    search_fields = ("crowd_worker__external_id", "batch_id", "session_id")
    readonly_fields = ("campaign", "crowd_worker", "batch_id", "session_id", "arrived_at", "last_arrived_at")

    def has_add_permission(self, request):
        return False
