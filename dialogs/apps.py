from django.apps import AppConfig
from django.core import checks


class DialogsConfig(AppConfig):
    name = "dialogs"
    verbose_name = "Dialogues: pairing, rooms and the event log"

    def ready(self):
        # annotation never imports dialogs (the apps' direction): a block reaches the lobby and rooms by its signal.
        from annotation.signals import person_blocked
        from dialogs.lobby import on_person_blocked

        person_blocked.connect(on_person_blocked, dispatch_uid="dialogs.lobby.person_blocked")
        # The demo's experts are qualified when load_demo makes them (docs/experts.md), so `make run` pairs them.
        from annotation.signals import demo_accounts_made
        from dialogs.onboarding.qualification import on_demo_accounts

        demo_accounts_made.connect(on_demo_accounts, dispatch_uid="dialogs.onboarding.demo_accounts")
        # The queries people collect on a database shape its test suite (annotation.suites.builds), as its goals do.
        from annotation.suites.builds import suite_collected_source
        from dialogs.selectors import collected_queries

        suite_collected_source(collected_queries)
        # A goal dialogues were played on is deactivated, not discarded (annotation.goals.services.goal_discard).
        from annotation.goals.services import goal_use_source
        from dialogs.selectors import goal_uses

        goal_use_source(goal_uses)
        # Dealt work is done when its sequence is finished or its phase-1 question written (docs/dealing.md).
        from dialogs.deals.services import on_dialogue_ended, on_query_first_phase1_closed
        from dialogs.signals import dialogue_ended, query_first_phase1_closed

        dialogue_ended.connect(on_dialogue_ended, dispatch_uid="dialogs.deals.dialogue_ended")
        query_first_phase1_closed.connect(on_query_first_phase1_closed, dispatch_uid="dialogs.deals.phase1_closed")


@checks.register()
def quiz_file_check(app_configs, **kwargs):
    """The tutorial's quiz file, checked where an admin sees it (`manage.py check`, every command's start): a worker
    meets a broken file only as a polite message, so it must be loud here."""
    from dialogs.tutorial import QuizBankError, quiz_bank, quiz_banks_agree

    try:
        quiz_bank()
        quiz_banks_agree()
    except QuizBankError as exc:
        return [checks.Warning(str(exc), hint="Fix the file named by QUIZ_FILE.", id="dialogs.W001")]
    return []
