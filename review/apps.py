from django.apps import AppConfig


class ReviewConfig(AppConfig):
    name = "review"
    verbose_name = "Review, export and statistics"

    def ready(self):
        # Review builds on dialogs and listens to it; dialogs never imports review (the apps' direction).
        from django.db.models import Q

        from dialogs.lobby import collection_discard
        from dialogs.signals import dialogue_ended, dialogue_scored
        from review.models import ReviewStage
        from review.passes.services import on_dialogue_ended as enter_review
        from review.quality.services import on_dialogue_ended, on_dialogue_scored, on_review_decided
        from review.signals import review_decided

        # A dialogue enters review when its end commits; no read of review makes rows.
        dialogue_ended.connect(enter_review, dispatch_uid="review.passes.dialogue_ended")
        dialogue_ended.connect(on_dialogue_ended, dispatch_uid="review.quality.dialogue_ended")
        dialogue_scored.connect(on_dialogue_scored, dispatch_uid="review.quality.dialogue_scored")
        # Quality builds on the passes' decisions; the passes do not know it is there.
        review_decided.connect(on_review_decided, dispatch_uid="review.quality.review_decided")
        # A dialogue rejected in review will not become data: its goal needs another one, in pairing's draw and in
        # the campaigns' progress alike (docs/crowd.md, "How pairing chooses a goal").
        collection_discard("review.rejected", Q(review__stage=ReviewStage.REJECTED))
        # The campaign page pays Prolific bonuses from review's bonus files, recorded as the payments page records
        # them (docs/crowd.md, "The Prolific API").
        from dialogs.crowd.prolific import prolific_bonus_source
        from review.payments.prolific_source import prolific_owed, prolific_record, prolific_unrecord

        prolific_bonus_source(owed=prolific_owed, record=prolific_record, unrecord=prolific_unrecord)
