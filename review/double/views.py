"""The pages of blind double annotation (docs/double_annotation.md).

- `/review/double/`: the samples (admins draw one; reviewers open one to adjudicate) and those assigned to oneself.
- `/review/double/samples/<id>/`: agreement and disagreements, for admins and reviewers, never the sample's labeller.
- `/review/double/samples/<id>/label/` and `/review/double/items/<id>/`: the labeller's pages, theirs alone (403 for
  anyone else). They are built from the turn as the dialogue holds it, never from the item's first labels.
"""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from annotation.labels.acts import SYSTEM_ACTS, USER_ACTS
from annotation.labels.tokens import utterance_toks
from annotation.people.roles import can, role_required
from annotation.sql.schema import describe_tables
from dialogs import log
from review.double import selectors, services
from review.double.forms import AdjudicateForm, DrawForm, LabelForm
from review.double.models import DoubleItem, DoubleSample


@role_required("double.label")
def home(request):
    """The samples and the draw form (admins), the samples to adjudicate (reviewers), and one's own assignments."""
    manage = can(request.user, "double.manage")
    return _home(request, DrawForm(initial={"unit": DoubleSample.Unit.TURNS}) if manage else None)


def _home(request, form, status=200):
    adjudicate = can(request.user, "double.adjudicate")
    listed = selectors.samples_listed() if adjudicate else []
    return render(
        request,
        "review/double/home.html",
        {
            "form": form,
            "samples": [sample for sample in listed if sample.labeller_id != request.user.pk],
            "assigned": selectors.samples_assigned(request.user),
            "can_adjudicate": adjudicate,
        },
        status=status,
    )


@require_POST
@role_required("double.manage")
def draw(request):
    form = DrawForm(request.POST)
    if not form.is_valid():
        return _home(request, form, status=400)
    data = form.cleaned_data
    try:
        sample = services.double_sample_draw(
            admin=request.user,
            labeller=data["labeller"],
            size=data["size"],
            seed=data["seed"],
            unit=data["unit"],
            campaign=data["campaign"],
            db_id=data["db_id"],
            mode=data["mode"],
            note=data["note"],
        )
    except services.DoubleError as refused:
        form.add_error(None, refused.message)
        return _home(request, form, status=400)
    count = sample.items.count()
    messages.success(
        request,
        ngettext(
            "Sample %(sample)s drawn: %(count)s turn for %(person)s to label.",
            "Sample %(sample)s drawn: %(count)s turns for %(person)s to label.",
            count,
        )
        % {"sample": sample.pk, "count": count, "person": sample.labeller.username},
    )
    return redirect("review:double_sample", sample_id=sample.pk)


def _sample_for_adjudicator(request, sample_id: int) -> DoubleSample:
    """A sample whose first labels the person may read: never its labeller's, nor anyone's labelling one of its
    dialogues blind in another sample."""
    sample = get_object_or_404(DoubleSample.objects.select_related("labeller"), pk=sample_id)
    blind = DoubleItem.objects.filter(
        Q(sample=sample)
        | Q(sample__labeller=request.user, second__isnull=True, dialogue__in=sample.items.values("dialogue"))
    ).filter(sample__labeller=request.user)
    if blind.exists():
        raise PermissionDenied(_("You label this sample's dialogues blind: its first labels are not shown to you."))
    return sample


@role_required("double.adjudicate")
def sample(request, sample_id):
    """Agreement per field, the confusions, and the disagreements with their adjudication forms."""
    item = _sample_for_adjudicator(request, sample_id)
    return render(
        request,
        "review/double/sample.html",
        {
            "sample": item,
            "agreement": selectors.sample_agreement(item),
            "disagreements": selectors.disagreements(item),
            "can_manage": can(request.user, "double.manage"),
        },
    )


@role_required("double.adjudicate")
def sample_json(request, sample_id):
    """The sample's figures and disagreements as JSON, for whoever may read its page (never its labeller)."""
    item = _sample_for_adjudicator(request, sample_id)
    rows = [
        {
            "dialogue": row["item"].dialogue_id,
            "turn": row["item"].turn,
            "field": row["field"],
            "first": row["first"],
            "second": row["second"],
            "settled": row["adjudication"].choice if row["adjudication"] else None,
        }
        for row in selectors.disagreements(item)
    ]
    figures = selectors.sample_agreement(item)
    summary = {
        "sample": item.pk,
        "seed": item.seed,
        "unit": item.unit,
        "size": item.size,
        "labeller": item.labeller.username,
    }
    return JsonResponse({**summary, **figures, "disagreements": rows}, json_dumps_params={"ensure_ascii": False})


@require_POST
@role_required("double.manage")
def compare_waiting(request, sample_id):
    item = _sample_for_adjudicator(request, sample_id)
    queued = services.double_compare_waiting(admin=request.user, sample=item)
    messages.info(
        request,
        ngettext("%(count)s comparison queued again.", "%(count)s comparisons queued again.", queued)
        % {"count": queued},
    )
    return redirect("review:double_sample", sample_id=item.pk)


@require_POST
@role_required("double.adjudicate")
def adjudicate(request, item_id):
    item = get_object_or_404(DoubleItem.objects.select_related("sample", "dialogue__database"), pk=item_id)
    _sample_for_adjudicator(request, item.sample_id)
    form = AdjudicateForm(request.POST)
    back = reverse("review:double_sample", kwargs={"sample_id": item.sample_id}) + "#disagreements"
    if not form.is_valid():
        messages.error(request, _("Choose the field and which label stands."))
        return redirect(back)
    data = form.cleaned_data
    try:
        settled = services.double_adjudicate(
            adjudicator=request.user, item=item, field=data["field"], choice=data["choice"], note=data["note"]
        )
    except services.DoubleError as refused:
        messages.error(request, refused.message)
        return redirect(back)
    messages.success(
        request,
        _adjudicated(data["choice"], bool(settled.correction_seq))
        % {
            "field": data["field"].replace("_", " ").capitalize(),
            "dialogue": item.dialogue_id,
            "turn": item.turn,
            "correction": settled.correction_seq,
        },
    )
    return redirect(back)


def _adjudicated(choice: str, corrected: bool) -> str:
    """What an adjudication says, one whole sentence per case (docs/i18n.md: never a sentence glued from pieces)."""
    if choice == "first":
        if corrected:
            return _(
                "%(field)s of dialogue %(dialogue)s turn %(turn)s: the first label stands (recorded as correction "
                "#%(correction)s)."
            )
        return _("%(field)s of dialogue %(dialogue)s turn %(turn)s: the first label stands (the dialogue held it).")
    if corrected:
        return _(
            "%(field)s of dialogue %(dialogue)s turn %(turn)s: the second label stands (recorded as correction "
            "#%(correction)s)."
        )
    return _("%(field)s of dialogue %(dialogue)s turn %(turn)s: the second label stands (the dialogue held it).")


def _labeller_sample(request, sample_id: int) -> DoubleSample:
    sample = get_object_or_404(DoubleSample, pk=sample_id)
    if sample.labeller_id != request.user.pk:
        raise PermissionDenied(_("This sample is assigned to someone else."))
    return sample


@role_required("double.label")
def label_next(request, sample_id):
    """The next item of one's sample to label, or the sample's end."""
    item = selectors.next_item(_labeller_sample(request, sample_id))
    if item is None:
        messages.success(request, _("Every turn of sample %(sample)s is labelled. Thank you.") % {"sample": sample_id})
        return redirect("review:double_home")
    return redirect("review:double_item", item_id=item.pk)


@role_required("double.label")
def label(request, item_id):
    """One turn to label: its words and what came before (the user's questions and the responses, never a label,
    a query or a result), and the form. POST records the labels once."""
    item = get_object_or_404(DoubleItem.objects.select_related("sample", "dialogue__database"), pk=item_id)
    sample = _labeller_sample(request, item.sample_id)
    try:
        turn, earlier = services.item_turn(item)
    except services.DoubleError as refused:
        messages.error(request, refused.message)
        return redirect("review:double_home")
    status = 200
    if request.method == "POST":
        form = LabelForm(request.POST)
        if form.is_valid():
            try:
                services.double_label(
                    labeller=request.user, item=item, labels=form.cleaned_data, token=form.cleaned_data["token"]
                )
            except services.DoubleError as refused:
                form.add_error(None, refused.message)
                status = 409 if refused.code in ("twice", "stale") else 400
            else:
                messages.success(
                    request,
                    _("Turn %(position)s of %(count)s labelled.")
                    % {"position": item.position, "count": sample.items.count()},
                )
                return redirect("review:double_label_next", sample_id=sample.pk)
        else:
            status = 400
    else:
        form = LabelForm(initial={"token": services.item_token(item, turn)})
    database = item.dialogue.database
    return render(
        request,
        "review/double/label.html",
        {
            "item": item,
            "sample": sample,
            "total": sample.items.count(),
            "turn": turn,
            "earlier": earlier,
            "follow_up": log.follows_a_query(earlier, turn.seq),
            "form": form,
            "labelled": item.second is not None,
            "user_acts": USER_ACTS,
            "system_acts": SYSTEM_ACTS,
            "tokens": utterance_toks(turn.text),
            "schema_items": _schema_items(database.schema),
            "tables": describe_tables(database.schema) if database.schema else [],
            "can_run_sql": can(request.user, "sql.run") and database.has_file,
        },
        status=status,
    )


def _schema_items(schema: dict) -> list[dict]:
    """Tables, columns and values of a column that a span may link to, as the schema-link picker offers them."""
    tables = schema.get("table_names_original", []) if schema else []
    items = [{"type": "table", "id": index, "name": name, "value": name} for index, name in enumerate(tables)]
    columns = [
        (index, f"{tables[table]}.{name}", name)
        for index, (table, name) in enumerate(schema.get("column_names_original", []) if schema else [])
        if table >= 0
    ]
    items += [{"type": "column", "id": index, "name": shown, "value": name} for index, shown, name in columns]
    # A value: the words marked, as CHASE writes a value's literal (in double quotes), in one column.
    items += [{"type": "value", "id": index, "name": f"in {shown}", "value": ""} for index, shown, _ in columns]
    return items
