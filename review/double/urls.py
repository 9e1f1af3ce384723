"""Blind double annotation's URLs, included under /review/double/ in review's namespace (docs/double_annotation.md)."""

from django.urls import path

from review.double import views

urlpatterns = [
    path("", views.home, name="double_home"),
    path("draw/", views.draw, name="double_draw"),
    path("samples/<int:sample_id>/", views.sample, name="double_sample"),
    path("samples/<int:sample_id>/agreement.json", views.sample_json, name="double_sample_json"),
    path("samples/<int:sample_id>/compare/", views.compare_waiting, name="double_compare_waiting"),
    path("samples/<int:sample_id>/label/", views.label_next, name="double_label_next"),
    path("items/<int:item_id>/", views.label, name="double_item"),
    path("items/<int:item_id>/adjudicate/", views.adjudicate, name="double_adjudicate"),
]
