"""Pages of the review app."""

from django.shortcuts import render

from annotation.roles import role_required


@role_required("review.work")
def home(request):
    return render(request, "review/home.html")
