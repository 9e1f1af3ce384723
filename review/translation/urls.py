"""Translation projects' URLs, included under /review/translation/ in review's namespace (docs/translation.md)."""

from django.urls import path

from review.translation import views

urlpatterns = [
    path("", views.home, name="translation_home"),
    path("new/", views.project_create, name="translation_project_create"),
    path("<int:project_id>/", views.project, name="translation_project"),
    path("<int:project_id>/export/", views.export_start, name="translation_export_start"),
    path("databases/<int:project_database_id>/", views.database, name="translation_database"),
    path("databases/<int:project_database_id>/assign/", views.assign, name="translation_assign"),
    path("databases/<int:project_database_id>/propose/", views.units_propose, name="translation_units_propose"),
    path("databases/<int:project_database_id>/keep/", views.values_keep, name="translation_values_keep"),
    path("units/<int:unit_id>/", views.unit_save, name="translation_unit_save"),
    path("units/<int:unit_id>/propose/", views.unit_propose, name="translation_unit_propose"),
    path("interactions/<int:interaction_id>/", views.interaction, name="translation_interaction"),
    path("interactions/<int:interaction_id>/save/", views.interaction_save, name="translation_interaction_save"),
    path("interactions/<int:interaction_id>/sql/", views.interaction_sql_correct, name="translation_sql_correct"),
    path("interactions/<int:interaction_id>/review/", views.interaction_review, name="translation_interaction_review"),
    path("builds/<int:build_id>/", views.build_detail, name="translation_build"),
    path("builds/<int:build_id>/status/", views.build_status, name="translation_build_status"),
    path("builds/<int:build_id>/cancel/", views.build_cancel, name="translation_build_cancel"),
    path("exports/<int:export_id>/", views.export_detail, name="translation_export"),
    path("exports/<int:export_id>/status/", views.export_status, name="translation_export_status"),
    path("exports/<int:export_id>/cancel/", views.export_cancel, name="translation_export_cancel"),
    path("exports/<int:export_id>/download/", views.export_download, name="translation_export_download"),
]
