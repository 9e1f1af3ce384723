import urllib.error
import urllib.request

from django.core.management.base import BaseCommand, CommandError

from annotation.models import Goal
from dialogs.models import Campaign, SimulationRun
from dialogs.simulated.runs import DEFAULT_TIME_LIMIT_SECONDS, SimulationRefused, simulation_create, simulation_run


def server_answers(url: str, timeout: float = 10.0) -> str | None:
    """None when the platform at `url` answers its sign-in page, else why not."""
    try:
        with urllib.request.urlopen(f"{url.rstrip('/')}/login/", timeout=timeout) as response:  # noqa: S310 (http only)
            return None if response.status == 200 else f"it answered {response.status}"
    except urllib.error.HTTPError as error:
        return f"it answered {error.code}"
    except (urllib.error.URLError, OSError, ValueError) as error:
        return str(getattr(error, "reason", error))


class Command(BaseCommand):
    help = (
        "Pilot a campaign (or one goal) with simulated workers over the websocket protocol (docs/simulated_worker.md): "
        "each joins the lobby of the platform at --url, is paired, and holds a dialogue toward its goal. With "
        "--expert scripted a script answers as the expert too, so a campaign can be rehearsed with nobody present. "
        "The dialogues are marked simulated: kept out of releases, targets, payments and quality."
    )

    def add_arguments(self, parser):
        which = parser.add_mutually_exclusive_group(required=True)
        which.add_argument("--campaign", help="the campaign's name: its open goals are dealt to the workers in turn")
        which.add_argument("--goal", type=int, help="one goal's id")
        parser.add_argument("--count", type=int, required=True, help="how many simulated workers")
        parser.add_argument("--expert", choices=SimulationRun.Expert.values, default=SimulationRun.Expert.HUMAN)
        parser.add_argument(
            "--follow-suggestions", type=float, default=0.5, help="share of the platform's suggestions taken (0-1)"
        )
        parser.add_argument("--seed", type=int, default=None)
        parser.add_argument("--url", default="http://127.0.0.1:8000", help="the platform the workers connect to")
        parser.add_argument("--time-limit", type=int, default=DEFAULT_TIME_LIMIT_SECONDS, help="seconds for the run")

    def handle(self, *args, campaign, goal, count, expert, follow_suggestions, seed, url, time_limit, **options):
        chosen_campaign = chosen_goal = None
        if campaign is not None:
            chosen_campaign = Campaign.objects.filter(name=campaign).first()
            if chosen_campaign is None:
                raise CommandError(f"no campaign named {campaign!r}")
        else:
            chosen_goal = Goal.objects.filter(pk=goal).first()
            if chosen_goal is None:
                raise CommandError(f"no goal {goal}")
        if time_limit < 10:
            raise CommandError("--time-limit must be at least 10 seconds")
        problem = server_answers(url)
        if problem is not None:
            raise CommandError(f"the platform at {url} does not answer ({problem}): start it, or give --url")
        try:
            run = simulation_create(
                count=count,
                server_url=url,
                campaign=chosen_campaign,
                goal=chosen_goal,
                expert=expert,
                follow_suggestions=follow_suggestions,
                seed=seed,
                time_limit_seconds=time_limit,
            )
        except SimulationRefused as error:
            raise CommandError(str(error)) from None
        self.stderr.write(f"simulation {run.pk}: {count} simulated workers on {url}, expert: {expert}")
        run = simulation_run(run_id=run.pk)
        for item in run.report.get("workers", []):
            self.stdout.write(
                f"{item['worker']}: dialogue {item.get('dialogue', '-')}, {item.get('status') or 'not ended'}, "
                f"{item.get('answered', 0)} answered, {item.get('suggestions_followed', 0)} suggestions followed, "
                f"{item.get('guard_hits', 0)} guard hits" + (f", error: {item['error']}" if item.get("error") else "")
            )
        if run.state != SimulationRun.State.SUCCEEDED:
            raise CommandError(f"the simulation failed: {run.message}")
        self.stderr.write(run.message)
