import shutil
from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from annotation.sql.spider import LIMIT_MODES
from review.dataset.release_check import ReleaseCheckFailed
from review.dataset.services import EXPORT_FORMATS, dataset_build, export_options_clean
from review.dataset.splits import SplitError, read_split_file
from review.dataset.validation import SchemaViolation
from review.management.progress import ProgressBar
from review.records import ORIGINS, SELECTION_STATUS_VALUES


class Command(BaseCommand):
    help = (
        "Export dialogues in the CoSQL, SParC, CHASE and gold formats into a folder (the web page builds the same "
        "files as a zip). Every SQL is re-encoded and re-executed first; turns whose SQL fails are reported."
    )

    def add_arguments(self, parser):
        parser.add_argument("--format", dest="formats", action="append", required=True, choices=EXPORT_FORMATS)
        parser.add_argument("--out", required=True, type=Path, help="the folder to write (must be empty or absent)")
        parser.add_argument(
            "--status",
            dest="statuses",
            action="append",
            choices=SELECTION_STATUS_VALUES,
            help="default: approved (in review); or a dialogue status",
        )
        parser.add_argument("--database", dest="db_ids", action="append", help="only these db_ids (repeatable)")
        parser.add_argument("--from", dest="date_from", help="created on or after this date (YYYY-MM-DD)")
        parser.add_argument("--to", dest="date_to", help="created on or before this date (YYYY-MM-DD)")
        parser.add_argument("--origin", choices=ORIGINS, default="all", help="collected here, imported, or all")
        split = parser.add_mutually_exclusive_group()
        split.add_argument("--seed", type=int, default=0, help="seed of the 7:1:2 split by database (default 0)")
        split.add_argument("--split-file", type=Path, help="db_id → split, as JSON or 'db_id split' lines")
        parser.add_argument(
            "--limit-mode",
            choices=LIMIT_MODES,
            default=None,
            help="LIMIT in `sql`: 'one' (the SParC/CoSQL quirk) or 'value'; default per format (cosql/chase: one, "
            "sparc: value, as the public files hold)",
        )
        parser.add_argument(
            "--sql-errors",
            choices=["skip", "keep"],
            default="skip",
            help="turns whose SQL no longer runs: leave them out (default) or keep them; both are reported",
        )
        parser.add_argument(
            "--cosql-with-solo",
            action="store_true",
            help="put solo sequences in the CoSQL files too (they are always in SParC and CHASE)",
        )
        parser.add_argument(
            "--include-simulated",
            action="store_true",
            help="also the simulated worker's pilot dialogues (left out by default; docs/simulated_worker.md)",
        )
        parser.add_argument("--quiet", action="store_true", help="no progress bar")

    def handle(self, *args, formats, out, split_file, quiet, **options):
        if out.exists() and (not out.is_dir() or any(out.iterdir())):
            raise CommandError(f"{out} exists and is not an empty folder")
        split_map = None
        if split_file is not None:
            try:
                split_map = read_split_file(split_file)
            except (OSError, SplitError) as exc:
                raise CommandError(str(exc)) from exc
        try:
            cleaned = export_options_clean(
                formats=formats,
                statuses=options["statuses"],
                db_ids=options["db_ids"],
                date_from=options["date_from"],
                date_to=options["date_to"],
                origin=options["origin"],
                seed=options["seed"],
                split_map=split_map,
                limit_mode=options["limit_mode"],
                sql_errors=options["sql_errors"],
                cosql_solo=options["cosql_with_solo"],
                include_simulated=options["include_simulated"],
            )
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages)) from exc
        # Written beside the target and renamed at the end: an interrupted export leaves no half-written folder.
        out = out.resolve()
        work = out.with_name(f".{out.name}.partial")
        shutil.rmtree(work, ignore_errors=True)
        bar = None if quiet else ProgressBar(self.stderr._out)
        try:
            report = dataset_build(options=cleaned, out_dir=work, progress=bar.update if bar else None)
        except ReleaseCheckFailed as exc:
            # Not published as the release (its files disagree), but kept to be looked at, with the whole list.
            raise CommandError(
                f"{exc.messages[0]} The files and export_report.json are kept in {work} (not in {out})."
            ) from exc
        except (ValidationError, SchemaViolation) as exc:
            shutil.rmtree(work, ignore_errors=True)
            raise CommandError(" ".join(getattr(exc, "messages", [str(exc)]))) from exc
        except BaseException:
            shutil.rmtree(work, ignore_errors=True)
            raise
        finally:
            if bar:
                bar.close()
        if out.exists():
            out.rmdir()
        work.rename(out)
        counts = report["counts"]
        for problem in report["problems"][:20]:
            self.stderr.write(
                f"[{problem['action']}] dialogue {problem['dialogue']} ({problem['db_id']}), turn {problem['turn']}: "
                f"{problem['problem']}"
            )
        if len(report["problems"]) > 20:
            self.stderr.write(f"... {len(report['problems']) - 20} more in {out / 'export_report.json'}")
        without_turns = counts.get("dialogues_without_sql_turns", 0)
        splits = ", ".join(f"{name} {value['dialogues']}" for name, value in report["splits"].items())
        not_in_files = (
            f" {without_turns} selected dialogue{'s' * (without_turns != 1)} had no SQL turn left to export."
            if without_turns
            else ""
        )
        self.stdout.write(
            self.style.SUCCESS(
                f"Exported {counts['dialogues']} dialogues ({splits}) on {counts['databases']} databases: "
                f"{counts.get('turns_exported', 0)} SQL turns, {counts.get('turns_skipped', 0)} left out, "
                f"{counts.get('sql_not_executed', 0)} not executed (schema only).{not_in_files} Files in {out}."
            )
        )
