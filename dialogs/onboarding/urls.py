"""The onboarding's addresses (docs/experts.md), included by dialogs/urls.py under its namespace."""

from django.urls import path

from dialogs.onboarding import views

urlpatterns = [
    path("expert/guidelines/", views.guidelines_page, name="onboarding_guidelines"),
    path("expert/practice/", views.practice_start, name="practice_start"),
    path("expert/practice/<int:dialogue_id>/", views.practice_result, name="practice_result"),
    path("manage/experts/", views.onboarding, name="onboarding"),
    path("manage/experts/practice-goals/", views.practice_goals, name="practice_goals"),
    path("manage/experts/rules/<int:campaign_id>/", views.practice_rule, name="practice_rule"),
    path("manage/experts/<int:user_id>/", views.expert_record, name="expert_record"),
]
