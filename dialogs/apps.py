from django.apps import AppConfig


class DialogsConfig(AppConfig):
    name = "dialogs"
    verbose_name = "Dialogues: pairing, rooms and the event log"

    def ready(self):
        # annotation never imports dialogs (the apps' direction): a block reaches the lobby and rooms by its signal.
        from annotation.signals import person_blocked
        from dialogs.lobby import on_person_blocked

        person_blocked.connect(on_person_blocked, dispatch_uid="dialogs.lobby.person_blocked")
