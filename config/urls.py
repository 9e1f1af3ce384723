from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.http import JsonResponse
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from annotation import views as annotation_views
from config import javascript_catalogue
from review.quality import views as quality_views


def healthz(request):
    """Liveness probe for compose and load balancers: no database work."""
    return JsonResponse({"ok": True})


urlpatterns = [
    path("", annotation_views.home, name="home"),
    path("login/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("healthz", healthz, name="healthz"),
    path("language/", annotation_views.language_choose, name="language"),
    # The words the JavaScript shows, in the request's language (locale/*/LC_MESSAGES/djangojs.po): templates/base.html
    # loads it before any module, which read gettext, ngettext and interpolate through static/js/i18n.js.
    # Pages load it by a versioned address, cached for a year (config/javascript_catalogue.py); /jsi18n/ stays for
    # anything that asks by the old one.
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path(
        "jsi18n/<str:language>/<str:version>.js",
        javascript_catalogue.versioned_catalogue,
        name="javascript-catalog-versioned",
    ),
    path("django-admin/", admin.site.urls),
    path("", include("annotation.urls")),
    path("", include("dialogs.urls")),
    # The expert's own reviewed work lives beside the expert desk (/expert/), but it reads review: the review app's.
    path("expert/work/", quality_views.expert_own_work, name="expert_own_work"),
    path("review/", include("review.urls")),
]
