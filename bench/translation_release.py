"""A whole public sample translated through the platform and its release read by a public evaluator
(docs/translation.md, "A public evaluator").

Usage: .venv/bin/python bench/translation_release.py [--shared PATH] [--evaluator-python /tmp/evalenv/bin/python]
       [--keep DIR]

A throwaway platform (its own data folder and SQLite database) imports the SParC dev sample of ../shared (222
interactions on 7 Spider databases), makes one translation project of all of it, and has a translator translate every
unit and question and a reviewer approve every interaction, through the services the screens call:
- every table and column name gets a Chinese name of its own, two characters of the names' pool below and the
  name's place in its database (no name says what it meant; what a release must survive is that
  every name is another, in CJK characters);
- every text value with a letter gets 译 before it (keeping the values' order and what a LIKE pattern inside them
  finds, as a careful translation of a pattern's word would);
- every question becomes 问题 and its number.
Then the export runs as the admin's button runs it (each gold query rewritten and run on the translated copy) and the
release is read by `bench/translation_public_evaluator.py` under the Python given (a venv with nl2sql360: see that
script), whose three checks (the public parser reads every gold query; each runs; each exact-set-matches itself) must
all pass. Prints the export's own gold check and the evaluator's counts; exits 1 unless both pass in full.
"""

import argparse
import json
import os
import secrets
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SHARED = Path(os.environ.get("WOZSQL_SHARED_DIR", PROJECT_ROOT.parent / "shared"))
# Common characters of Chinese table and column names; a name is two of them and its number.
POOL = "学生课程教师成绩名称年份国家城市人口语言车型号码宠物主人狗品种航班机场歌手演唱会体育场类别日期地址价格数量"


def _name(number: int, kind: str) -> str:
    """A Chinese name of its own for the `number`th name of a database: two characters of the pool and the number
    (the pool repeats a character, so the number is what keeps names apart), a table's ending in 表."""
    size = len(POOL)
    suffix = "表" if kind == "table" else ""
    return f"{POOL[number % size]}{POOL[(number * 7 + 3) % size]}{number}{suffix}"


def _setup(data_dir: Path) -> None:
    os.environ["WOZSQL_DATA_DIR"] = str(data_dir)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "1"
    sys.path.insert(0, str(PROJECT_ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def _people():
    from annotation.models import User

    made = {}
    for username, role in (("bench-admin", "admin"), ("bench-translator", "expert"), ("bench-reviewer", "reviewer")):
        made[role], _ = User.objects.get_or_create(username=username, defaults={"role": role})
    return made


def _save(services, person, unit, text: str) -> None:
    """Save a unit's translation; where it would merge two values the file keeps apart (`US` and `US ` with a space:
    the platform refuses the merge), the second gets a number after it, as a translator would tell them apart."""
    from django.core.exceptions import ValidationError

    for attempt in range(1, 10):
        try:
            services.translation_unit_save(
                person=person, unit=unit, text=text if attempt == 1 else f"{text}（{attempt}）"
            )
            return
        except ValidationError:
            if attempt == 9:
                raise


def _translate(project, people) -> tuple[int, int]:
    from review.translation import services
    from review.translation.models import TranslationUnit

    units = 0
    for project_database in project.databases.order_by("id"):
        services.translation_assign(admin=people["admin"], project_database=project_database, people=[people["expert"]])
        names = 0
        for unit in project_database.units.order_by("id"):
            if unit.kind == TranslationUnit.Kind.VALUE:
                text = f"译{unit.source}"
            else:
                text, names = _name(names, unit.kind), names + 1
            _save(services, people["expert"], unit, text)
            units += 1
    interactions = 0
    for interaction in project.interactions.order_by("id"):
        services.translation_interaction_save(
            person=people["expert"],
            interaction=interaction,
            questions=[f"问题{index + 1}" for index in range(len(interaction.turns))],
            final_question="最后的问题",
            submit=True,
        )
        services.translation_interaction_review(reviewer=people["reviewer"], interaction=interaction, approve=True)
        interactions += 1
    return units, interactions


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=DEFAULT_SHARED)
    parser.add_argument("--evaluator-python", default="/tmp/evalenv/bin/python")
    parser.add_argument("--keep", type=Path, help="copy the release here")
    args = parser.parse_args()
    data_dir = Path(tempfile.mkdtemp(prefix="wozsql-translation-release-"))
    _setup(data_dir)
    from django.conf import settings

    from review.dataset.importer import dataset_import
    from review.translation import services, source
    from review.translation.export import translation_export_run
    from review.translation.models import TranslationExport

    started = time.perf_counter()
    report = dataset_import(
        fmt="sparc",
        data_path=args.shared / "samples" / "sparc_dev_sample.json",
        tables_path=args.shared / "spider" / "tables.json",
        databases_dir=args.shared / "spider" / "database",
    )
    (release,) = source.imported_releases()
    people = _people()
    project = services.translation_project_create(
        admin=people["admin"], name="SParC dev sample in Chinese", release_key=release.key, db_ids=[]
    )
    units, interactions = _translate(project, people)
    made = time.perf_counter()
    export = TranslationExport.objects.create(project=project, requested_by=people["admin"])
    export = translation_export_run(export_id=export.pk)
    exported = time.perf_counter()
    print(
        f"imported {report.dialogues_created} interactions; project of {project.databases.count()} databases, "
        f"{units} units and {interactions} interactions translated and approved in {made - started:.1f} s"
    )
    print(
        f"export: {export.state}, {export.gold_passed} of {export.gold_total} gold queries pass the export's own "
        f"check, {exported - made:.1f} s"
    )
    if export.state != TranslationExport.State.SUCCEEDED:
        print(f"  {export.message}")
        return 1
    zip_path = Path(settings.DATA_DIR) / export.file
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
        (args.keep / zip_path.name).write_bytes(zip_path.read_bytes())
    verdict = subprocess.run(
        [args.evaluator_python, str(PROJECT_ROOT / "bench" / "translation_public_evaluator.py"), str(zip_path)],
        capture_output=True,
        text=True,
    )
    lines = [line for line in verdict.stdout.splitlines() if not line.startswith("Evaluating")]
    print("the public evaluator:\n  " + "\n  ".join(lines))
    if verdict.returncode:
        print(verdict.stderr[-2000:])
    summary = {"gold_passed": export.gold_passed, "gold_total": export.gold_total, "evaluator_rc": verdict.returncode}
    print(json.dumps(summary))
    return 0 if export.gold_passed == export.gold_total and not verdict.returncode else 1


if __name__ == "__main__":
    sys.exit(main())
