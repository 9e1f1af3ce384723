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
]
