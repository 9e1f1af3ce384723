"""The URLs of human rating, included under review/rating/ in review's namespace (review/urls.py)."""

from django.urls import path

from review.rating import views

urlpatterns = [
    path("", views.tasks, name="rating_tasks"),
    path("turns.jsonl", views.turns_jsonl, name="rating_turns"),
    path("<int:task_id>/", views.task, name="rating_task"),
    path("<int:task_id>/ratings.csv", views.ratings_csv, name="rating_csv"),
    path("<int:task_id>/rate/", views.rate_next, name="rating_next"),
    path("<int:task_id>/rate/<int:position>/", views.rate, name="rating_rate"),
    path("<int:task_id>/mine.json", views.mine_json, name="rating_mine"),
]
