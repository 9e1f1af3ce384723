from django.urls import path

from dialogs import query_first_views, views
from dialogs.crowd import views as campaign_views

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
    path("manage/campaigns/", campaign_views.campaign_list, name="campaign_list"),
    path("manage/campaigns/new/", campaign_views.campaign_edit, name="campaign_new"),
    path("manage/campaigns/<int:campaign_id>/", campaign_views.campaign_detail, name="campaign_detail"),
    path("manage/campaigns/<int:campaign_id>/edit/", campaign_views.campaign_edit, name="campaign_edit"),
    path("manage/campaigns/<int:campaign_id>/new-link/", campaign_views.campaign_new_link, name="campaign_new_link"),
    path("manage/campaigns/<int:campaign_id>/simulate/", campaign_views.campaign_simulate, name="campaign_simulate"),
    path("manage/simulations/<int:simulation_id>/", campaign_views.simulation_status_json, name="simulation_status"),
    path("join/<str:token>/", campaign_views.crowd_join, name="crowd_join"),
    path("worker/return/", campaign_views.crowd_return, name="crowd_return"),
]
