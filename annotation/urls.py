from django.urls import path

from annotation import views

app_name = "annotation"

urlpatterns = [
    path("manage/", views.admin_home, name="admin_home"),
    path("databases/", views.database_list, name="database_list"),
    path("databases/upload/", views.database_upload, name="database_upload"),
    path("databases/<str:db_id>/", views.database_detail, name="database_detail"),
    path("databases/<str:db_id>/curate/", views.database_curate, name="database_curate"),
    path("databases/<str:db_id>/curate/<str:action>/", views.database_curate_edit, name="database_curate_edit"),
    path("databases/<str:db_id>/test-suite/rebuild/", views.database_suite_rebuild, name="database_suite_rebuild"),
    path("databases/<str:db_id>/tables/<int:table_index>/", views.database_table, name="database_table"),
    path("databases/<str:db_id>/sql/validate/", views.sql_validate, name="sql_validate"),
    path("databases/<str:db_id>/sql/run/", views.sql_run, name="sql_run"),
    path("databases/<str:db_id>/goals/generate/", views.goal_generation, name="goal_generation"),
    path("goals/generations/<int:generation_id>/", views.goal_generation_status, name="goal_generation_status"),
    path(
        "goals/generations/<int:generation_id>/cancel/",
        views.goal_generation_cancel_view,
        name="goal_generation_cancel",
    ),
    path("goals/", views.goal_list, name="goal_list"),
    path("goals/new/", views.goal_edit, name="goal_new"),
    path("goals/<int:goal_id>/edit/", views.goal_edit, name="goal_edit"),
    path("goals/<int:goal_id>/discard/", views.goal_discard_view, name="goal_discard"),
    path("people/", views.people, name="people"),
    path("people/<int:user_id>/block/", views.person_block, name="person_block"),
]
