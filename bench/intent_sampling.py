"""How close to the target intent distribution a collection gets when people often ignore the recommendation:
coverage-balanced choice (`annotation.wording.suggestions.choose_category`) against CHASE's uniform sampling.

Usage: .venv/bin/python bench/intent_sampling.py [--turns 1000] [--seeds 20] [--ignore 0.4] [--natural TEXT]
       [--targets TEXT] [--exploration 0.1] [--shared PATH]

One run simulates `--turns` follow-up questions in dialogues of 3 to 8 follow-ups. The previous query of each turn is
a real query of the SParC and CoSQL samples in ../shared (in its dialogue's order, on its own Spider database), and
only the categories `applicable_categories` allows after it can be recommended or asked. Before each turn a category
is recommended, by one of two strategies:

- uniform (CHASE): any applicable category, with equal chances (CHASE draws from all five and lets the annotator
  change a category that does not fit; drawing only applicable ones is the kinder version of it);
- coverage-balanced: `choose_category` with the counts of this database and of the whole collection so far.

A share `--ignore` (0.4) of the people ignore it and ask what they naturally ask, drawn from `--natural` restricted to
the applicable categories; the others ask the recommended category. By default people naturally ask mostly about the
same instances: same_instances 0.55, different_instances 0.20, different_entity 0.15, display 0.05, combination 0.05.
The collected distribution is compared with `--targets` (default: equal shares) by total variation distance (TV,
half the L1 distance; 0 is on target, 1 is disjoint). Both strategies see the same dialogues, the same people and the
same coin flips for every seed. Prints TV (mean, standard deviation, min, max over the seeds) and L1 per strategy,
the mean collected share of each category, and the floor: the TV no strategy can beat, because those who deviate
alone already ask more of some category than its target (counted as if every category were always applicable).
Without ../shared the previous queries are replaced by seven databases on which every category applies.
"""

import argparse
import json
import os
import random
import statistics
import sys
from collections import Counter
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_ROOT))

# intents reads Django settings only in intent_targets(), which this script does not call: no settings needed.
from annotation.labels.relations import CATEGORIES  # noqa: E402
from annotation.wording.suggestions import applicable_categories, choose_category, normalise_targets  # noqa: E402

DEFAULT_SHARED = Path(os.environ.get("WOZSQL_SHARED_DIR", PROJECT_ROOT.parent / "shared"))
DEFAULT_NATURAL = "same_instances=0.55, different_instances=0.20, different_entity=0.15, display=0.05, combination=0.05"
SAMPLES = ("sparc_dev_sample.json", "cosql_dev_sample.json")


def load_dialogues(shared: Path) -> list[tuple[str, list[frozenset]]]:
    """(database, the applicable categories after each of its queries, in order) per sample dialogue."""
    tables_path = shared / "spider" / "tables.json"
    if not tables_path.exists() or not all((shared / "samples" / name).exists() for name in SAMPLES):
        print(f"note: {shared} has no SParC/CoSQL samples; every category applies on seven made-up databases")
        return [(f"database {number}", [frozenset(CATEGORIES)]) for number in range(7)]
    with open(tables_path, encoding="utf-8") as handle:
        schemas = {schema["db_id"]: schema for schema in json.load(handle)}
    dialogues = []
    queries = 0
    for name in SAMPLES:
        with open(shared / "samples" / name, encoding="utf-8") as handle:
            for interaction in json.load(handle):
                schema = schemas[interaction["database_id"]]
                found = [frozenset(applicable_categories(turn["query"], schema)) for turn in interaction["interaction"]]
                queries += len(found)
                dialogues.append((interaction["database_id"], found))
    databases = len({database for database, _ in dialogues})
    print(f"previous queries: {queries} real SParC/CoSQL queries, {len(dialogues)} dialogues, {databases} databases")
    return dialogues


def uniform(*, available: list[str], rng: random.Random, **_context) -> str:
    return rng.choice(available)


def balanced(*, available, rng, local, overall, targets, exploration) -> str:
    return choose_category(
        local=local, overall=overall, targets=targets, rng=rng, available=set(available), exploration=exploration
    )


def simulate(strategy, dialogues, *, seed: int, turns: int, ignore: float, natural: dict, targets: dict, **options):
    """The categories collected in one run: a Counter over CATEGORIES."""
    world = random.Random(seed)  # dialogues, people and their questions: the same for every strategy
    chooser = random.Random(seed + 1_000_003)  # the strategy's own draws
    overall: Counter = Counter()
    local: dict[str, Counter] = {}
    collected = 0
    while collected < turns:
        database, applicable = world.choice(dialogues)
        for step in range(world.randint(3, 8)):
            if collected == turns:
                break
            available = [name for name in CATEGORIES if name in applicable[step % len(applicable)]]
            counts = local.setdefault(database, Counter())
            recommended = strategy(
                available=available,
                rng=chooser,
                local=counts,
                overall=overall,
                targets=targets,
                **options,
            )
            ignores = world.random() < ignore
            weights = [natural[name] for name in available]
            wanted = world.choices(available, weights)[0] if sum(weights) > 0 else world.choice(available)
            asked = wanted if ignores else recommended
            counts[asked] += 1
            overall[asked] += 1
            collected += 1
    return overall


def total_variation(counts: Counter, targets: dict) -> float:
    total = sum(counts.values())
    return sum(abs(counts[name] / total - targets[name]) for name in CATEGORIES) / 2


def describe(shares: dict) -> str:
    return ", ".join(f"{name} {share:.2f}" for name, share in shares.items())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=1000)
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--ignore", type=float, default=0.4, help="share of people who ignore the recommendation")
    parser.add_argument("--natural", default=DEFAULT_NATURAL, help='what people ask when they ignore it: "c=w, ..."')
    parser.add_argument("--targets", default="", help='target shares, "category=weight, ..." (default: equal)')
    parser.add_argument("--exploration", type=float, default=0.1, help="choose_category's exploration")
    parser.add_argument("--shared", type=Path, default=DEFAULT_SHARED)
    args = parser.parse_args()

    natural = normalise_targets(args.natural)
    targets = normalise_targets(args.targets)
    dialogues = load_dialogues(args.shared)
    print(f"{args.turns} follow-up turns, {args.seeds} seeds; {args.ignore:.0%} ignore the recommendation and ask:")
    print(f"  {describe(natural)}")
    print(f"target: {describe(targets)}")

    strategies = {"uniform (CHASE)": (uniform, {}), "coverage-balanced": (balanced, {"exploration": args.exploration})}
    print()
    print(f"{'strategy':<20}{'TV mean':>9}{'TV sd':>8}{'TV min':>8}{'TV max':>8}{'L1 mean':>9}")
    shares_by_strategy = {}
    for label, (strategy, options) in strategies.items():
        distances = []
        shares = Counter()
        for seed in range(args.seeds):
            counts = simulate(
                strategy,
                dialogues,
                seed=seed,
                turns=args.turns,
                ignore=args.ignore,
                natural=natural,
                targets=targets,
                **options,
            )
            distances.append(total_variation(counts, targets))
            shares.update({name: counts[name] / args.turns / args.seeds for name in CATEGORIES})
        spread = statistics.stdev(distances) if len(distances) > 1 else 0.0
        mean = statistics.mean(distances)
        print(f"{label:<20}{mean:>9.3f}{spread:>8.3f}{min(distances):>8.3f}{max(distances):>8.3f}{2 * mean:>9.3f}")
        shares_by_strategy[label] = shares
    floor = sum(max(0.0, args.ignore * natural[name] - targets[name]) for name in CATEGORIES)
    print(f"{'floor':<20}{floor:>9.3f}{'':>24}{2 * floor:>9.3f}")

    print()
    print(f"{'mean share':<20}" + "".join(f"{name:>21}" for name in CATEGORIES))
    for label, shares in shares_by_strategy.items():
        print(f"{label:<20}" + "".join(f"{shares[name]:>21.3f}" for name in CATEGORIES))
    print(f"{'target':<20}" + "".join(f"{targets[name]:>21.3f}" for name in CATEGORIES))


if __name__ == "__main__":
    main()
