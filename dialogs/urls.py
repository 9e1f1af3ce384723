from django.urls import include, path

from dialogs import query_first_views, views
from dialogs.crowd import prolific_views
from dialogs.crowd import views as campaign_views
from dialogs.deals import views as deal_views

app_name = "dialogs"

urlpatterns = [
    path("worker/", views.worker_home, name="worker_home"),
    path("worker/tutorial/", views.tutorial, name="tutorial"),
    path("worker/dialogues/", views.worker_history, name="worker_history"),
    path("worker/leave/", views.lobby_leave, name="lobby_leave"),
    path("expert/", views.expert_home, name="expert_home"),
    path("expert/ready/", views.expert_ready, name="expert_ready"),
    path("dialogues/<int:dialogue_id>/", views.room, name="room"),
    path("dialogues/<int:dialogue_id>/tables/<int:table_index>/", views.room_table, name="room_table"),
    path("manage/live/", views.operations, name="operations"),
    path("manage/live/rooms/<int:dialogue_id>/", views.room_watch, name="room_watch"),
    path("solo/", views.solo_home, name="solo_home"),
    path("solo/<int:dialogue_id>/", views.solo, name="solo"),
    path("solo/<int:dialogue_id>/turns/", views.solo_turns, name="solo_turns"),
    path("solo/<int:dialogue_id>/labels/", views.solo_labels, name="solo_labels"),
    path("solo/<int:dialogue_id>/another/", views.solo_another, name="solo_another"),
    path("solo/<int:dialogue_id>/finish/", views.solo_finish, name="solo_finish"),
    path("query-first/", query_first_views.query_first_home, name="query_first_home"),
    path("query-first/<int:item_id>/write/", query_first_views.query_first_write, name="query_first_write"),
    path("query-first/<int:item_id>/align/", query_first_views.query_first_align, name="query_first_align"),
    path("query-first/tokens/", query_first_views.query_first_tokens, name="query_first_tokens"),
    # Work dealt out evenly among experts (docs/dealing.md).
    path("assigned/<int:assignment_id>/begin/", deal_views.assignment_begin, name="assignment_begin"),
    path("manage/deals/", deal_views.deal_list, name="deal_list"),
    path("manage/deals/new/", deal_views.deal_new, name="deal_new"),
    path("manage/deals/<int:deal_id>/", deal_views.deal_detail, name="deal_detail"),
    path("manage/deals/<int:deal_id>/leave/", deal_views.deal_member_leave, name="deal_member_leave"),
    path("manage/campaigns/", campaign_views.campaign_list, name="campaign_list"),
    path("manage/campaigns/new/", campaign_views.campaign_edit, name="campaign_new"),
    path("manage/campaigns/<int:campaign_id>/", campaign_views.campaign_detail, name="campaign_detail"),
    path("manage/campaigns/<int:campaign_id>/edit/", campaign_views.campaign_edit, name="campaign_edit"),
    path("manage/campaigns/<int:campaign_id>/new-link/", campaign_views.campaign_new_link, name="campaign_new_link"),
    path("manage/campaigns/<int:campaign_id>/simulate/", campaign_views.campaign_simulate, name="campaign_simulate"),
    path("manage/simulations/<int:simulation_id>/", campaign_views.simulation_status_json, name="simulation_status"),
    # Prolific's API from the campaign page (docs/crowd.md, "The Prolific API").
    path(
        "manage/campaigns/<int:campaign_id>/prolific/settings/",
        prolific_views.prolific_settings,
        name="prolific_settings",
    ),
    path(
        "manage/campaigns/<int:campaign_id>/prolific/publish/", prolific_views.prolific_publish, name="prolific_publish"
    ),
    path(
        "manage/campaigns/<int:campaign_id>/prolific/bonuses/",
        prolific_views.prolific_bonuses_pay,
        name="prolific_bonuses_pay",
    ),
    path("manage/prolific/studies/<int:study_pk>/pause/", prolific_views.prolific_pause, name="prolific_pause"),
    path("manage/prolific/studies/<int:study_pk>/resume/", prolific_views.prolific_resume, name="prolific_resume"),
    path("manage/prolific/studies/<int:study_pk>/refresh/", prolific_views.prolific_refresh, name="prolific_refresh"),
    path(
        "manage/prolific/studies/<int:study_pk>/submissions/",
        prolific_views.prolific_submissions,
        name="prolific_submissions",
    ),
    path(
        "manage/prolific/studies/<int:study_pk>/submissions/<str:submission_id>/decide/",
        prolific_views.prolific_decide,
        name="prolific_decide",
    ),
    path(
        "manage/prolific/payments/<int:payment_id>/",
        prolific_views.prolific_payment_status,
        name="prolific_payment_status",
    ),
    path(
        "manage/prolific/payments/<int:payment_id>/retry/",
        prolific_views.prolific_payment_retry,
        name="prolific_payment_retry",
    ),
    path(
        "manage/prolific/payments/<int:payment_id>/cancel/",
        prolific_views.prolific_payment_cancel,
        name="prolific_payment_cancel",
    ),
    path("join/<str:token>/", campaign_views.crowd_join, name="crowd_join"),
    path("worker/return/", campaign_views.crowd_return, name="crowd_return"),
    # Experts onboarded before live rooms (docs/experts.md): guidelines, practice, qualification.
    path("", include("dialogs.onboarding.urls")),
]
