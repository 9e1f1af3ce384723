from django.contrib import admin

from dialogs.models import Dialogue, Event, LobbyEntry


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
    list_filter = ("status", "incomplete", "database")
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
