from django import forms
from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from annotation.goals.services import goal_check
from annotation.models import BlockRecord, Database, Goal, User


class BlockRecordInline(admin.TabularInline):
    """The block history, read-only: a block or unblock is made on the People page, which records it."""

    model = BlockRecord
    fk_name = "person"
    extra = 0
    fields = ("created_at", "blocked", "by", "rule", "reason", "evidence")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(User)
class PersonAdmin(UserAdmin):
    list_display = ("username", "role", "blocked", "is_active", "last_login", "date_joined")
    list_filter = ("role", "blocked", "is_active")
    fieldsets = (
        *UserAdmin.fieldsets,
        ("wozsql", {"fields": ("role", "blocked", "blocked_reason", "tutorial_passed_at")}),
    )
    add_fieldsets = (*UserAdmin.add_fieldsets, ("wozsql", {"fields": ("role",)}))
    # Changing these here would leave no record: blocking is done on the People page (person_set_blocked).
    readonly_fields = ("blocked", "blocked_reason")
    inlines = [BlockRecordInline]


class GoalInline(admin.TabularInline):
    model = Goal
    extra = 0
    fields = ("question", "sql", "hardness", "source", "active")
    readonly_fields = ("hardness",)


@admin.register(Database)
class DatabaseAdmin(admin.ModelAdmin):
    list_display = ("db_id", "table_count", "column_count", "size_bytes", "active", "created_at")
    list_filter = ("active",)
    search_fields = ("db_id", "description")
    readonly_fields = ("file", "schema", "size_bytes", "sha256", "created_at", "created_by")
    inlines = [GoalInline]

    def has_add_permission(self, request):
        # A database is added by upload (the schema is read from the file); see the "Upload" page.
        return False


class GoalAdminForm(forms.ModelForm):
    """Checks the SQL with the same service as the goal pages, and computes the hardness from it."""

    class Meta:
        model = Goal
        fields = ("database", "question", "sql", "source", "active")

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("database") and cleaned.get("sql"):
            self.instance.hardness = goal_check(database=cleaned["database"], sql=cleaned["sql"])
        return cleaned


@admin.register(Goal)
class GoalAdmin(admin.ModelAdmin):
    form = GoalAdminForm
    list_display = ("question", "database", "hardness", "source", "active")
    list_filter = ("hardness", "source", "active", "database")
    search_fields = ("question", "sql")
    readonly_fields = ("hardness", "created_at")
