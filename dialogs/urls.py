from django.urls import path

from dialogs import views

app_name = "dialogs"

urlpatterns = [
    path("worker/", views.worker_home, name="worker_home"),
    path("worker/tutorial/", views.tutorial, name="tutorial"),
    path("worker/leave/", views.lobby_leave, name="lobby_leave"),
    path("expert/", views.expert_home, name="expert_home"),
    path("dialogues/<int:dialogue_id>/", views.room, name="room"),
    path("dialogues/<int:dialogue_id>/tables/<int:table_index>/", views.room_table, name="room_table"),
    path("manage/live/", views.operations, name="operations"),
    path("solo/", views.solo_home, name="solo_home"),
    path("solo/<int:dialogue_id>/", views.solo, name="solo"),
    path("solo/<int:dialogue_id>/turns/", views.solo_turns, name="solo_turns"),
    path("solo/<int:dialogue_id>/labels/", views.solo_labels, name="solo_labels"),
    path("solo/<int:dialogue_id>/another/", views.solo_another, name="solo_another"),
    path("solo/<int:dialogue_id>/finish/", views.solo_finish, name="solo_finish"),
]
