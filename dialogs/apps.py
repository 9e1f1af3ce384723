from django.apps import AppConfig


class DialogsConfig(AppConfig):
    name = "dialogs"
    verbose_name = "Dialogues: pairing, rooms and the event log"
