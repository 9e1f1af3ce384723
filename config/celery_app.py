"""The Celery application: configuration from Django settings (CELERY_*), tasks discovered in the apps."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("wozsql")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
