"""Sign-in throttling with a limit of its own for each way of counting failures (settings.LOGIN_FAILURE_LIMITS).

django-axes counts failures per lockout parameter (one account; one account from one address; one address) but
compares them all with one limit. One limit cannot fit all three: five typos of one person behind a lab's or a
campus's shared address would lock the whole lab out, while a spray of guesses over many accounts from one address
needs a limit of its own. So each count is compared with its own limit, reported to axes on axes' scale.
"""

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_failure_limit, get_lockout_parameters
from django.conf import settings
from django.db.models import Sum


class SignInThrottle(AxesDatabaseHandler):
    def get_failures(self, request, credentials=None) -> int:
        """The failures of the count closest to its limit, scaled so that axes' one limit (AXES_FAILURE_LIMIT) is
        reached exactly when that count reaches its own: count * axes_limit // own_limit >= axes_limit if and only
        if count >= own_limit."""
        axes_limit = get_failure_limit(request, credentials)
        parameters = get_lockout_parameters(request, credentials)
        attempts_list = self.get_user_attempts(request, credentials)  # one queryset per parameter, in their order
        scaled = 0
        for parameter, attempts in zip(parameters, attempts_list, strict=True):
            key = (parameter,) if isinstance(parameter, str) else tuple(parameter)
            own_limit = settings.LOGIN_FAILURE_LIMITS[key]
            count = attempts.aggregate(total=Sum("failures_since_start"))["total"] or 0
            scaled = max(scaled, count * axes_limit // own_limit)
        return scaled
