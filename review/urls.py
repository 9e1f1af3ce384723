from django.urls import include, path

from review.dataset import views as dataset_views
from review.double import urls as double_urls
from review.passes import views as pass_views
from review.pay import views as pay_views
from review.payments import views as payment_views
from review.quality import views as quality_views
from review.rating import urls as rating_urls
from review.translation import urls as translation_urls

app_name = "review"

urlpatterns = [
    path("", pass_views.home, name="home"),
    path("agreement.json", pass_views.agreement, name="agreement"),
    path("next/", pass_views.claim_next, name="claim_next"),
    path("pools/", pass_views.pools, name="pools"),
    path("dialogues/<int:dialogue_id>/", pass_views.dialogue, name="dialogue"),
    path("dialogues/<int:dialogue_id>/claim/", pass_views.claim, name="claim"),
    path("dialogues/<int:dialogue_id>/renew/", pass_views.renew, name="renew"),
    path("dialogues/<int:dialogue_id>/release/", pass_views.release, name="release"),
    path("dialogues/<int:dialogue_id>/correct/", pass_views.correct, name="correct"),
    path("dialogues/<int:dialogue_id>/send-back/", pass_views.send_back, name="send_back"),
    path("dialogues/<int:dialogue_id>/fix/", pass_views.fix, name="fix"),
    path("dialogues/<int:dialogue_id>/fix/correct/", pass_views.fix_correct, name="fix_correct"),
    path("dialogues/<int:dialogue_id>/fix/return/", pass_views.fix_return, name="fix_return"),
    path("dialogues/<int:dialogue_id>/decide/", pass_views.decide, name="decide"),
    path("dialogues/<int:dialogue_id>/reopen/", pass_views.reopen, name="reopen"),
    path("dialogues/<int:dialogue_id>/compare/", pass_views.compare, name="compare"),
    path(
        "dialogues/<int:dialogue_id>/warnings/<int:warning_id>/clear/", pass_views.clear_warning, name="clear_warning"
    ),
    path("datasets/", dataset_views.datasets, name="datasets"),
    path("datasets/<int:export_id>/", dataset_views.export_detail, name="export_detail"),
    path("datasets/<int:export_id>/status/", dataset_views.export_status, name="export_status"),
    path("datasets/<int:export_id>/download/", dataset_views.export_download, name="export_download"),
    path("datasets/<int:export_id>/retry/", dataset_views.export_retry, name="export_retry"),
    path("datasets/<int:export_id>/evaluations/", dataset_views.evaluations, name="evaluations"),
    path("evaluations/<int:evaluation_id>/", dataset_views.evaluation_detail, name="evaluation_detail"),
    path("evaluations/<int:evaluation_id>/status/", dataset_views.evaluation_status, name="evaluation_status"),
    path(
        "evaluations/<int:evaluation_id>/figures/<str:stratum>.<str:fmt>",
        dataset_views.evaluation_figure,
        name="evaluation_figure",
    ),
    path("quality/workers/", quality_views.worker_quality, name="worker_quality"),
    path("quality/experts/", quality_views.expert_quality, name="expert_quality"),
    path("quality/experts/<int:user_id>/", quality_views.expert_work, name="expert_work"),
    path("statistics/", dataset_views.statistics, name="statistics"),
    path("statistics/data.json", dataset_views.statistics_json, name="statistics_json"),
    path("statistics/figures/<str:name>.<str:fmt>", dataset_views.statistics_figure, name="statistics_figure"),
    path("statistics/model-help/", dataset_views.model_help, name="model_help"),
    path(
        "statistics/model-help/figures/<str:name>.<str:fmt>",
        dataset_views.model_help_figure,
        name="model_help_figure",
    ),
    path("payments/", payment_views.payment_home, name="payments"),
    path("payments/<int:campaign_id>/<str:name>.csv", payment_views.payment_file, name="payment_file"),
    path("rating/", include(rating_urls)),
    path("pay/", pay_views.pay_home, name="pay_home"),
    path("pay/rules/", pay_views.pay_rule_save, name="pay_rule_save"),
    path("pay/rules/<int:rule_id>/remove/", pay_views.pay_rule_remove, name="pay_rule_remove"),
    path("pay/people/<int:user_id>/", pay_views.pay_statement, name="pay_statement"),
    path("pay/people/<int:user_id>/statement.csv", pay_views.pay_statement_csv, name="pay_statement_csv"),
    path("pay/people/<int:user_id>/record/", pay_views.pay_statement_record, name="pay_statement_record"),
    path("pay/statements/<int:statement_id>/", pay_views.pay_recorded, name="pay_recorded"),
    path("pay/statements/<int:statement_id>.csv", pay_views.pay_recorded_csv, name="pay_recorded_csv"),
    path("double/", include(double_urls)),
    path("translation/", include(translation_urls)),
]
