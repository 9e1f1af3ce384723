import json
from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from annotation.models import User
from annotation.people.roles import can
from annotation.plumbing.jsonfile import parse_json
from dialogs.models import Dialogue
from review.models import DialogueImport
from review.passes.services import ReviewError, review_correct
from review.records import dialogue_record_of


class Command(BaseCommand):
    help = (
        "Apply corrections from a JSON-lines file as corrections of one reviewer (the same history as the review "
        'screen). Each line: {"dialogue": <id, or {"file": NAME, "position": N} of an imported file>, "turn": '
        '<0-based user turn>, "field": "query"|"utterance"|"response"|"user_acts"|"system_acts", "value": ..., '
        '"reason": "..."}. Prints one JSON line per input line; a bad line changes nothing and the others still apply.'
    )

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path, help="the corrections, one JSON object per line")
        parser.add_argument("--reviewer", required=True, help="username of the reviewer the corrections are made by")
        parser.add_argument(
            "--source", help="name of an imported file: a numeric 'dialogue' is then its position in that file"
        )

    def handle(self, *args, file, reviewer, source, **options):
        person = User.objects.filter(username=reviewer).first()
        if person is None:
            raise CommandError(f"no person named {reviewer!r}")
        if not can(person, "review.work"):
            raise CommandError(f"{reviewer} may not review dialogues (role {person.role})")
        try:
            lines = file.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"cannot read {file}: {exc}") from exc
        applied = refused = 0
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            outcome = self._apply(line, f"{file}, line {number}", person, source)
            applied += outcome["ok"]
            refused += not outcome["ok"]
            self.stdout.write(json.dumps({"line": number, **outcome}, ensure_ascii=False))
        self.stderr.write(f"{applied} correction{'s' * (applied != 1)} applied, {refused} refused")

    def _apply(self, line: str, place: str, person: User, source: str | None) -> dict:
        try:
            item = parse_json(line, source=place)
        except ValidationError as exc:
            return {"ok": False, "error": exc.messages[0]}
        if not isinstance(item, dict):
            return {"ok": False, "error": "each line must be a JSON object"}
        missing = [key for key in ("dialogue", "turn", "field", "value") if key not in item]
        if missing:
            return {"ok": False, "error": f"missing {', '.join(missing)}"}
        dialogue, error = _dialogue(item["dialogue"], source)
        if dialogue is None:
            return {"ok": False, "error": error}
        index = item["turn"]
        record = dialogue_record_of(dialogue)
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(record.user_turns):
            return {
                "ok": False,
                "dialogue": dialogue.pk,
                "error": f"turn must be 0 to {len(record.user_turns) - 1} (the dialogue has {len(record.user_turns)})",
            }
        turn = record.user_turns[index]
        try:
            event = review_correct(
                reviewer=person,
                dialogue=dialogue,
                turn=turn.seq,
                field=str(item["field"]),
                value=item["value"],
                reason=str(item.get("reason") or ""),
                record=record,
                require_claim=False,
            )
        except ReviewError as exc:
            return {"ok": False, "dialogue": dialogue.pk, "turn": index, "error": exc.message}
        return {"ok": True, "dialogue": dialogue.pk, "turn": index, "field": item["field"], "seq": event.seq}


def _dialogue(reference, source: str | None):
    """The dialogue a line names: an id, or a position in an imported file. Returns (dialogue, error)."""
    if isinstance(reference, dict):
        name, position = reference.get("file"), reference.get("position")
    elif source is not None:
        name, position = source, reference
    else:
        name, position = None, None
    if name is not None:
        if not isinstance(position, int) or isinstance(position, bool):
            return None, "the position in the imported file must be a whole number"
        found = DialogueImport.objects.filter(file_name=name, position=position).select_related("dialogue").first()
        if found is None:
            return None, f"no dialogue was imported from {name} at position {position}"
        dialogue = found.dialogue
    else:
        if not isinstance(reference, int) or isinstance(reference, bool):
            return None, '\'dialogue\' must be a dialogue id (or {"file": ..., "position": ...})'
        dialogue = Dialogue.objects.filter(pk=reference).first()
        if dialogue is None:
            return None, f"no dialogue {reference}"
    return Dialogue.objects.select_related("database").get(pk=dialogue.pk), None
