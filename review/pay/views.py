"""The pay pages (docs/pay.md): the admins' page of rules and everyone's statements for a period; one person's
statement (theirs, or anyone's for an admin) with its CSV and, for an admin, "record as paid"; a recorded statement,
read-only, with its file as it was recorded.

Every page needs `pay.own` (experts, reviewers, admins: never crowd workers); a person's pay is then shown to that
person and to admins (`pay.manage`) only, by `_person_or_404`. Anyone else gets a 404, as for a person who does not
exist: the page says nothing of whose pay there is.
"""

from datetime import date

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from annotation.models import User
from annotation.people.roles import can, role_required
from review.pay import selectors, services
from review.pay.forms import PayRuleForm, PeriodForm, period_from, period_shifted
from review.pay.models import PayRule, PayStatement

OWN = "pay.own"
MANAGE = services.MANAGE_PERMISSION


def _person_or_404(request, user_id: int) -> User:
    """The person whose pay the page shows: oneself, or anyone for an admin; a 404 for anyone else."""
    if request.user.pk == user_id:
        return request.user
    if can(request.user, MANAGE):
        return get_object_or_404(User, pk=user_id)
    raise Http404("no such statement")


def _idle_minutes() -> str:
    minutes = settings.PAY_IDLE_GAP_SECONDS / 60
    return f"{minutes:g}"


def _period_query(start: date, end: date) -> str:
    return urlencode({"start": start.isoformat(), "end": end.isoformat()})


def _period_links(start: date, end: date) -> dict:
    return {
        "earlier": _period_query(*period_shifted(start, end, -1)),
        "later": _period_query(*period_shifted(start, end, 1)),
        "query": _period_query(start, end),
    }


@role_required(OWN)
def pay_home(request):
    """An admin's page: the rules (the default one per role, and each campaign's), a period and everyone's statement
    for it with the totals, and the statements recorded. Anyone else's "Pay" is their own statement."""
    if not can(request.user, MANAGE):
        return redirect(f"{reverse('review:pay_statement', args=[request.user.pk])}?{request.GET.urlencode()}")
    period, start, end = period_from(request.GET)
    found = list(selectors.statements(start, end).values())
    return render(
        request,
        "review/pay/home.html",
        {
            "rules": PayRule.objects.select_related("campaign", "updated_by").order_by("campaign__name", "role"),
            "rule_form": PayRuleForm(),
            "period": period,
            "start": start,
            "end": end,
            "links": _period_links(start, end),
            "statements": found,
            "totals": selectors.currency_totals(
                (currency, total) for statement in found for currency, total in statement.totals.items()
            ),
            "unpriced": sum(len(statement.unpriced) for statement in found),
            "recorded": selectors.statements_recorded()[:100],
            "idle_minutes": _idle_minutes(),
        },
    )


@require_POST
@role_required(MANAGE)
def pay_rule_save(request):
    """Set a rule from the page's form (a campaign's, or the default), replacing the one there was."""
    form = PayRuleForm(request.POST)
    if not form.is_valid():
        for field, errors in form.errors.items():
            label = form.fields[field].label if field in form.fields else field
            messages.error(
                request, gettext("%(field)s: %(errors)s") % {"field": label or field, "errors": " ".join(errors)}
            )
        return redirect("review:pay_home")
    data = form.cleaned_data
    try:
        rule = services.pay_rule_save(
            by=request.user,
            campaign=data["campaign"],
            role=data["role"],
            basis=data["basis"],
            rate=data["rate"],
            currency=data["currency"],
        )
    except services.PayRefused as refused:
        messages.error(request, refused.message)
    else:
        said = (
            gettext("%(role)s in %(campaign)s: %(rate)s %(currency)s %(basis)s.")
            if rule.campaign
            else gettext("%(role)s by default: %(rate)s %(currency)s %(basis)s.")
        )
        messages.success(
            request,
            said
            % {
                "role": rule.get_role_display(),
                "campaign": rule.campaign.name if rule.campaign else "",
                "rate": f"{rule.rate:.2f}",
                "currency": rule.currency,
                "basis": rule.get_basis_display(),
            },
        )
    return redirect("review:pay_home")


@require_POST
@role_required(MANAGE)
def pay_rule_remove(request, rule_id):
    rule = get_object_or_404(PayRule, pk=rule_id)
    services.pay_rule_remove(by=request.user, rule=rule)
    messages.success(request, gettext("Rule removed: that work is priced by the default rule again (if there is one)."))
    return redirect("review:pay_home")


@role_required(OWN)
def pay_statement(request, user_id):
    """One person's statement for a period: every item of work with its time or count and amount, the total, the
    items paid already (by which statement) and those no rule prices yet; their recorded statements. An admin records
    it as paid from here."""
    person = _person_or_404(request, user_id)
    period, start, end = period_from(request.GET)
    statement = selectors.statement_of(person, start, end)
    return render(
        request,
        "review/pay/statement.html",
        {
            "person": person,
            "own": person.pk == request.user.pk,
            "manager": can(request.user, MANAGE),
            "period": period,
            "statement": statement,
            "links": _period_links(start, end),
            "recorded": selectors.statements_recorded(person)[:100],
            "idle_minutes": _idle_minutes(),
        },
    )


@role_required(OWN)
def pay_statement_csv(request, user_id):
    """The statement for a period as CSV: the items owed and their totals (what "record as paid" would record)."""
    person = _person_or_404(request, user_id)
    period = PeriodForm(request.GET)
    if not period.is_valid():
        raise Http404("no such period")
    start, end = period.cleaned_data["start"], period.cleaned_data["end"]
    statement = selectors.statement_of(person, start, end)
    text = services.statement_csv(person=person, start=start, end=end, lines=statement.owed)
    return _csv(text, f"pay-{person.pk}-{start.isoformat()}-{end.isoformat()}.csv")


@require_POST
@role_required(MANAGE)
def pay_statement_record(request, user_id):
    """Record the statement the page showed as paid (the form's period and digest), once the admin ticked that they
    paid it. A second click, or a statement whose items changed since, records nothing and says why."""
    person = get_object_or_404(User, pk=user_id)
    period = PeriodForm(request.POST)
    if not period.is_valid():
        raise Http404("no such period")
    start, end = period.cleaned_data["start"], period.cleaned_data["end"]
    back = f"{reverse('review:pay_statement', args=[person.pk])}?{_period_query(start, end)}"
    if request.POST.get("confirm") != "yes":
        messages.error(request, gettext("Tick “I have paid this statement” first: nothing was recorded."))
        return redirect(back)
    try:
        recorded = services.pay_statement_record(
            by=request.user, person=person, start=start, end=end, digest=request.POST.get("digest", "")
        )
    except services.PayRefused as refused:
        (messages.info if refused.code == "already" else messages.error)(request, refused.message)
        if refused.statement is not None:
            return redirect("review:pay_recorded", statement_id=refused.statement.pk)
        return redirect(back)
    totals = ", ".join(f"{total} {currency}" for currency, total in recorded.totals.items())
    messages.success(
        request,
        gettext("Statement %(number)s recorded as paid: %(totals)s to %(name)s.")
        % {"number": recorded.pk, "totals": totals, "name": person.username},
    )
    return redirect("review:pay_recorded", statement_id=recorded.pk)


def _recorded_or_404(request, statement_id: int) -> PayStatement:
    statement = get_object_or_404(PayStatement.objects.select_related("person", "paid_by"), pk=statement_id)
    _person_or_404(request, statement.person_id)
    return statement


@role_required(OWN)
def pay_recorded(request, statement_id):
    """A statement recorded as paid, as it was recorded: read-only."""
    statement = _recorded_or_404(request, statement_id)
    return render(
        request,
        "review/pay/recorded.html",
        {
            "recorded": statement,
            "items": statement.items.all(),
            "own": statement.person_id == request.user.pk,
            "manager": can(request.user, MANAGE),
        },
    )


@role_required(OWN)
def pay_recorded_csv(request, statement_id):
    """A recorded statement's file, byte for byte as it was recorded."""
    statement = _recorded_or_404(request, statement_id)
    return _csv(statement.csv_text, f"pay-statement-{statement.pk}.csv")


def _csv(text: str, filename: str) -> HttpResponse:
    # The file name is made of numbers and ISO dates only: nothing a person typed reaches the header.
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
