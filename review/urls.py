from django.urls import path

from review import views
from review.payments import views as payment_views

app_name = "review"

urlpatterns = [
    path("", views.home, name="home"),
    path("agreement.json", views.agreement, name="agreement"),
    path("next/", views.claim_next, name="claim_next"),
    path("dialogues/<int:dialogue_id>/", views.dialogue, name="dialogue"),
    path("dialogues/<int:dialogue_id>/claim/", views.claim, name="claim"),
    path("dialogues/<int:dialogue_id>/renew/", views.renew, name="renew"),
    path("dialogues/<int:dialogue_id>/release/", views.release, name="release"),
    path("dialogues/<int:dialogue_id>/correct/", views.correct, name="correct"),
    path("dialogues/<int:dialogue_id>/decide/", views.decide, name="decide"),
    path("dialogues/<int:dialogue_id>/reopen/", views.reopen, name="reopen"),
    path("datasets/", views.datasets, name="datasets"),
    path("datasets/<int:export_id>/", views.export_detail, name="export_detail"),
    path("datasets/<int:export_id>/status/", views.export_status, name="export_status"),
    path("datasets/<int:export_id>/download/", views.export_download, name="export_download"),
    path("datasets/<int:export_id>/retry/", views.export_retry, name="export_retry"),
    path("quality/workers/", views.worker_quality, name="worker_quality"),
    path("quality/experts/", views.expert_quality, name="expert_quality"),
    path("quality/experts/<int:user_id>/", views.expert_work, name="expert_work"),
    path("statistics/", views.statistics, name="statistics"),
    path("statistics/data.json", views.statistics_json, name="statistics_json"),
    path("statistics/figures/<str:name>.<str:fmt>", views.statistics_figure, name="statistics_figure"),
    path("payments/", payment_views.payment_home, name="payments"),
    path("payments/<int:campaign_id>/<str:name>.csv", payment_views.payment_file, name="payment_file"),
]
