"""The Celery face of the annotation app: tasks take ids and call the job's module."""

from celery import shared_task


@shared_task(name="annotation.goals_generate", acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def goals_generate(generation_id: int) -> None:
    from annotation.goal_generation import goal_generation_run

    goal_generation_run(generation_id)
