from django.urls import path

from dialogs import views

app_name = "dialogs"

urlpatterns = [
    path("worker/", views.worker_home, name="worker_home"),
    path("expert/", views.expert_home, name="expert_home"),
]
