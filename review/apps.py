from django.apps import AppConfig


class ReviewConfig(AppConfig):
    name = "review"
    verbose_name = "Review, export and statistics"

    def ready(self):
        # Review builds on dialogs and listens to it; dialogs never imports review (the apps' direction).
        from dialogs.signals import dialogue_ended, dialogue_scored
        from review.quality import on_dialogue_ended, on_dialogue_scored

        dialogue_ended.connect(on_dialogue_ended, dispatch_uid="review.quality.dialogue_ended")
        dialogue_scored.connect(on_dialogue_scored, dispatch_uid="review.quality.dialogue_scored")
