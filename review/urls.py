from django.urls import path

from review import views

app_name = "review"

urlpatterns = [
    path("", views.home, name="home"),
    path("datasets/", views.datasets, name="datasets"),
    path("datasets/<int:export_id>/", views.export_detail, name="export_detail"),
    path("datasets/<int:export_id>/status/", views.export_status, name="export_status"),
    path("datasets/<int:export_id>/download/", views.export_download, name="export_download"),
    path("datasets/<int:export_id>/retry/", views.export_retry, name="export_retry"),
    path("statistics/", views.statistics, name="statistics"),
    path("statistics/data.json", views.statistics_json, name="statistics_json"),
    path("statistics/figures/<str:name>.<str:fmt>", views.statistics_figure, name="statistics_figure"),
]
