"""Pages of the dialogs app: the worker's and the expert's home."""

from django.shortcuts import render

from annotation.roles import role_required


@role_required("chat.as_worker")
def worker_home(request):
    return render(request, "dialogs/worker_home.html")


@role_required("chat.as_expert")
def expert_home(request):
    return render(request, "dialogs/expert_home.html")
