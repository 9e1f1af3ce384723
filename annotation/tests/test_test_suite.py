"""Test suites: the paths other code finds them by, generation, distillation and comparison (docs/test_suites.md)."""

from annotation.sql.test_suite import original_path, suite_dir, suite_paths


def test_suite_paths_is_the_original_alone_before_a_suite_is_built(tmp_path):
    assert suite_paths(tmp_path, "concert_singer") == [
        tmp_path / "databases" / "concert_singer" / "concert_singer.sqlite"
    ]


def test_suite_paths_lists_the_original_first_then_the_generated_databases_in_order(tmp_path):
    folder = suite_dir(tmp_path, "concert_singer")
    folder.mkdir(parents=True)
    for name in ("0002.sqlite", "0001.sqlite", "manifest.json"):
        (folder / name).write_text("")
    assert suite_paths(tmp_path, "concert_singer") == [
        original_path(tmp_path, "concert_singer"),
        folder / "0001.sqlite",
        folder / "0002.sqlite",
    ]
