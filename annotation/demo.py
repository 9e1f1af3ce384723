"""The project's own demo data: three small SQLite databases and reference goals on them, made by code.

Nothing is downloaded. Every random choice comes from a `random.Random` seeded per database, and the rows are
written in a fixed order, so building twice with the same SQLite library gives byte-identical files (the demo loader
compares checksums to decide whether a registered database must be replaced).

- `dorm_demo`: students, dorms, amenities and who lives where, modelled on the dormitory dialogue of the CoSQL paper
  (Figure 1: "Which of those dorms have a TV lounge?" ... "What dorms have no study rooms as amenities?").
- `library_demo`: authors, books, members and loans.
- `flights_demo`: airlines, airports and scheduled flights.
"""

import math
import os
import random
import sqlite3
from collections.abc import Callable
from contextlib import closing
from datetime import date, timedelta
from pathlib import Path

from django.conf import settings

from annotation.databases.curation import file_sha256 as _sha256
from annotation.databases.services import database_register
from annotation.goals.services import goal_create
from annotation.models import Database, Goal, Role, User
from annotation.people.services import person_create
from annotation.signals import demo_accounts_made

# --------------------------------------------------------------------------------------------------------------------
# dorm_demo

_DORM_SCHEMA = """
CREATE TABLE student (
    student_id   INTEGER PRIMARY KEY,
    first_name   VARCHAR(30) NOT NULL,
    last_name    VARCHAR(30) NOT NULL,
    age          INTEGER,
    sex          CHAR(1),
    major        VARCHAR(40),
    home_city    VARCHAR(40)
);
CREATE TABLE dorm (
    dorm_id          INTEGER PRIMARY KEY,
    dorm_name        VARCHAR(40) NOT NULL,
    student_capacity INTEGER,
    gender           CHAR(1),
    opened_year      YEAR
);
CREATE TABLE dorm_amenity (
    amenity_id   INTEGER PRIMARY KEY,
    amenity_name VARCHAR(40) NOT NULL
);
CREATE TABLE has_amenity (
    dorm_id    INTEGER NOT NULL,
    amenity_id INTEGER NOT NULL,
    PRIMARY KEY (dorm_id, amenity_id),
    FOREIGN KEY (dorm_id) REFERENCES dorm(dorm_id),
    FOREIGN KEY (amenity_id) REFERENCES dorm_amenity(amenity_id)
);
CREATE TABLE lives_in (
    student_id  INTEGER PRIMARY KEY,
    dorm_id     INTEGER NOT NULL,
    room_number INTEGER,
    FOREIGN KEY (student_id) REFERENCES student(student_id),
    FOREIGN KEY (dorm_id) REFERENCES dorm(dorm_id)
);
"""

# (name, capacity, gender: F / M / X for mixed, opened, amenities). Amenities are fixed by hand rather than drawn at
# random so that the Figure 1 question has a short, stable answer: only Granite Court has a TV lounge but no study room.
_DORMS = [
    ("Juniper House", 120, "F", 1962, ["TV Lounge", "Study Room", "Laundry Room", "Kitchen"]),
    ("Granite Court", 240, "X", 1998, ["TV Lounge", "Gym", "Laundry Room", "Game Room", "Bike Storage"]),
    ("Maple Lodge", 80, "M", 1955, ["Study Room", "Laundry Room"]),
    ("Harbor View Hall", 300, "X", 2012, ["TV Lounge", "Study Room", "Gym", "Laundry Room", "Kitchen", "Roof Terrace"]),
    ("Willow House", 60, "F", 1971, ["Study Room", "Quiet Floor", "Kitchen"]),
    ("Oakridge Hall", 150, "M", 1984, ["TV Lounge", "Study Room", "Gym", "Game Room"]),
    ("Bluebell Cottage", 40, "X", 1931, ["Kitchen", "Music Practice Room"]),
    ("Summit Towers", 280, "X", 2005, ["TV Lounge", "Study Room", "Laundry Room", "Bike Storage", "Quiet Floor"]),
    ("Riverside Commons", 200, "X", 2018, ["Study Room", "Gym", "Kitchen", "Music Practice Room", "Roof Terrace"]),
]
_AMENITIES = [
    "TV Lounge",
    "Study Room",
    "Laundry Room",
    "Gym",
    "Kitchen",
    "Bike Storage",
    "Music Practice Room",
    "Game Room",
    "Roof Terrace",
    "Quiet Floor",
    "Wheelchair Access",
]
_FIRST_NAMES = {
    "F": ["Amelia", "Sofia", "Priya", "Chloe", "Hannah", "Mei", "Olivia", "Fatima", "Grace", "Lucia", "Zoe", "Aisha",
          "Emma", "Nora", "Yuki", "Isabel", "Leah", "Maya"],
    "M": ["Liam", "Noah", "Arjun", "Mateo", "Ethan", "Kenji", "Omar", "Lucas", "Daniel", "Samuel", "Wei", "Diego",
          "Jacob", "Tariq", "Felix", "Oscar", "Henry", "Malik"],
}  # fmt: skip
_LAST_NAMES = [
    "Anderson", "Brooks", "Chen", "Diaz", "Edwards", "Fischer", "Garcia", "Hughes", "Ito", "Johnson", "Kim", "Lopez",
    "Martin", "Nguyen", "Okafor", "Patel", "Quinn", "Rossi", "Schmidt", "Turner", "Usman", "Varga", "Walker", "Young",
]  # fmt: skip
# Weighted by repetition: a campus has more CS and Biology students than Philosophy ones.
_MAJORS = [
    "Computer Science", "Computer Science", "Computer Science", "Biology", "Biology", "Economics", "Economics",
    "Mathematics", "History", "Psychology", "Psychology", "Mechanical Engineering", "Chemistry", "Music", "Philosophy",
]  # fmt: skip
_CITIES = [
    "Baltimore", "Chicago", "Pittsburgh", "Seattle", "Austin", "Boston", "Denver", "Atlanta", "Philadelphia",
    "San Diego", "Portland", "New York", "Toronto", "Mexico City",
]  # fmt: skip
_STUDENT_COUNT = 64


def _fill_dorm(connection: sqlite3.Connection, rng: random.Random) -> None:
    amenity_ids = {name: index for index, name in enumerate(_AMENITIES, start=1)}
    connection.executemany("INSERT INTO dorm_amenity VALUES (?, ?)", [(i, name) for name, i in amenity_ids.items()])
    connection.executemany(
        "INSERT INTO dorm VALUES (?, ?, ?, ?, ?)",
        [(i, name, capacity, gender, opened) for i, (name, capacity, gender, opened, _) in enumerate(_DORMS, start=1)],
    )
    connection.executemany(
        "INSERT INTO has_amenity VALUES (?, ?)",
        [(i, amenity_ids[a]) for i, (*_, amenities) in enumerate(_DORMS, start=1) for a in amenities],
    )

    full_names = [(first, last) for sex in ("F", "M") for first in _FIRST_NAMES[sex] for last in _LAST_NAMES]
    chosen = rng.sample(full_names, _STUDENT_COUNT)
    students, residents = [], []
    rooms_taken: set[tuple[int, int]] = set()
    for student_id, (first, last) in enumerate(chosen, start=1):
        sex = "F" if first in _FIRST_NAMES["F"] else "M"
        # Mostly undergraduates; a few older graduate students make averages and comparisons interesting.
        age = rng.choice([18, 18, 19, 19, 19, 20, 20, 20, 21, 21, 22, 22, 23, 24, 26, 27])
        students.append((student_id, first, last, age, sex, rng.choice(_MAJORS), rng.choice(_CITIES)))
        if rng.random() < 0.1:
            continue  # lives off campus: not every student appears in lives_in
        allowed = [(i, dorm[1]) for i, dorm in enumerate(_DORMS, start=1) if dorm[2] in (sex, "X")]
        # Bigger dorms house more of the students, as they would on a real campus.
        dorm_id = rng.choices([i for i, _ in allowed], weights=[capacity for _, capacity in allowed])[0]
        room = rng.randint(1, 4) * 100 + rng.randint(1, 30)
        while (dorm_id, room) in rooms_taken:
            room += 1
        rooms_taken.add((dorm_id, room))
        residents.append((student_id, dorm_id, room))
    connection.executemany("INSERT INTO student VALUES (?, ?, ?, ?, ?, ?, ?)", students)
    connection.executemany("INSERT INTO lives_in VALUES (?, ?, ?)", residents)


# --------------------------------------------------------------------------------------------------------------------
# library_demo

_LIBRARY_SCHEMA = """
CREATE TABLE author (
    author_id  INTEGER PRIMARY KEY,
    name       VARCHAR(60) NOT NULL,
    country    VARCHAR(40),
    birth_year INTEGER
);
CREATE TABLE book (
    book_id        INTEGER PRIMARY KEY,
    title          VARCHAR(120) NOT NULL,
    author_id      INTEGER NOT NULL,
    genre          VARCHAR(30),
    published_year INTEGER,
    pages          INTEGER,
    FOREIGN KEY (author_id) REFERENCES author(author_id)
);
CREATE TABLE member (
    member_id  INTEGER PRIMARY KEY,
    name       VARCHAR(60) NOT NULL,
    city       VARCHAR(40),
    joined_on  DATE,
    is_student BOOLEAN
);
CREATE TABLE loan (
    loan_id       INTEGER PRIMARY KEY,
    book_id       INTEGER NOT NULL,
    member_id     INTEGER NOT NULL,
    loan_date     DATE NOT NULL,
    due_date      DATE NOT NULL,
    returned_date DATE,
    FOREIGN KEY (book_id) REFERENCES book(book_id),
    FOREIGN KEY (member_id) REFERENCES member(member_id)
);
"""

_AUTHORS = [
    ("Jane Austen", "United Kingdom", 1775),
    ("Charles Dickens", "United Kingdom", 1812),
    ("Mary Shelley", "United Kingdom", 1797),
    ("George Orwell", "United Kingdom", 1903),
    ("Virginia Woolf", "United Kingdom", 1882),
    ("Agatha Christie", "United Kingdom", 1890),
    ("Leo Tolstoy", "Russia", 1828),
    ("Fyodor Dostoevsky", "Russia", 1821),
    ("Mark Twain", "United States", 1835),
    ("Herman Melville", "United States", 1819),
    ("Toni Morrison", "United States", 1931),
    ("Ursula K. Le Guin", "United States", 1929),
    ("Isaac Asimov", "United States", 1920),
    ("Gabriel Garcia Marquez", "Colombia", 1927),
    ("Jorge Luis Borges", "Argentina", 1899),
    ("Chinua Achebe", "Nigeria", 1930),
    ("Haruki Murakami", "Japan", 1949),
    ("Franz Kafka", "Austria-Hungary", 1883),
    ("Italo Calvino", "Italy", 1923),
    ("Margaret Atwood", "Canada", 1939),
]
# (title, author, genre, year, pages); page counts are those of common editions, rounded.
_BOOKS = [
    ("Pride and Prejudice", "Jane Austen", "Romance", 1813, 432),
    ("Emma", "Jane Austen", "Romance", 1815, 474),
    ("Persuasion", "Jane Austen", "Romance", 1817, 249),
    ("Great Expectations", "Charles Dickens", "Novel", 1861, 505),
    ("A Tale of Two Cities", "Charles Dickens", "Historical Fiction", 1859, 489),
    ("Oliver Twist", "Charles Dickens", "Novel", 1838, 608),
    ("Frankenstein", "Mary Shelley", "Gothic", 1818, 280),
    ("Nineteen Eighty-Four", "George Orwell", "Science Fiction", 1949, 328),
    ("Animal Farm", "George Orwell", "Satire", 1945, 112),
    ("Mrs Dalloway", "Virginia Woolf", "Novel", 1925, 194),
    ("To the Lighthouse", "Virginia Woolf", "Novel", 1927, 209),
    ("Murder on the Orient Express", "Agatha Christie", "Mystery", 1934, 256),
    ("And Then There Were None", "Agatha Christie", "Mystery", 1939, 272),
    ("The Murder of Roger Ackroyd", "Agatha Christie", "Mystery", 1926, 312),
    ("War and Peace", "Leo Tolstoy", "Historical Fiction", 1869, 1225),
    ("Anna Karenina", "Leo Tolstoy", "Novel", 1878, 864),
    ("Crime and Punishment", "Fyodor Dostoevsky", "Novel", 1866, 671),
    ("The Brothers Karamazov", "Fyodor Dostoevsky", "Novel", 1880, 796),
    ("Adventures of Huckleberry Finn", "Mark Twain", "Novel", 1884, 366),
    ("The Adventures of Tom Sawyer", "Mark Twain", "Novel", 1876, 274),
    ("Moby-Dick", "Herman Melville", "Novel", 1851, 635),
    ("Beloved", "Toni Morrison", "Novel", 1987, 324),
    ("Song of Solomon", "Toni Morrison", "Novel", 1977, 337),
    ("A Wizard of Earthsea", "Ursula K. Le Guin", "Fantasy", 1968, 183),
    ("The Left Hand of Darkness", "Ursula K. Le Guin", "Science Fiction", 1969, 304),
    ("The Dispossessed", "Ursula K. Le Guin", "Science Fiction", 1974, 387),
    ("Foundation", "Isaac Asimov", "Science Fiction", 1951, 255),
    ("I, Robot", "Isaac Asimov", "Science Fiction", 1950, 253),
    ("The Caves of Steel", "Isaac Asimov", "Science Fiction", 1954, 224),
    ("One Hundred Years of Solitude", "Gabriel Garcia Marquez", "Magical Realism", 1967, 417),
    ("Love in the Time of Cholera", "Gabriel Garcia Marquez", "Romance", 1985, 348),
    ("Ficciones", "Jorge Luis Borges", "Short Stories", 1944, 174),
    ("The Aleph", "Jorge Luis Borges", "Short Stories", 1949, 210),
    ("Things Fall Apart", "Chinua Achebe", "Novel", 1958, 209),
    ("Norwegian Wood", "Haruki Murakami", "Novel", 1987, 296),
    ("Kafka on the Shore", "Haruki Murakami", "Magical Realism", 2002, 505),
    ("The Trial", "Franz Kafka", "Novel", 1925, 255),
    ("The Metamorphosis", "Franz Kafka", "Short Stories", 1915, 70),
    ("Invisible Cities", "Italo Calvino", "Novel", 1972, 165),
    ("If on a Winter's Night a Traveler", "Italo Calvino", "Novel", 1979, 260),
    ("The Handmaid's Tale", "Margaret Atwood", "Science Fiction", 1985, 311),
    ("Oryx and Crake", "Margaret Atwood", "Science Fiction", 2003, 376),
]
_MEMBER_CITIES = ["Springfield", "Riverton", "Lakewood", "Fairview", "Greenville"]
_MEMBER_COUNT = 32
_LOAN_COUNT = 160
# The library's records end on this day; loans still out then have no returned_date.
_LIBRARY_TODAY = date(2024, 6, 30)


def _fill_library(connection: sqlite3.Connection, rng: random.Random) -> None:
    author_ids = {name: i for i, (name, _, _) in enumerate(_AUTHORS, start=1)}
    connection.executemany("INSERT INTO author VALUES (?, ?, ?, ?)", [(i, *a) for i, a in enumerate(_AUTHORS, 1)])
    connection.executemany(
        "INSERT INTO book VALUES (?, ?, ?, ?, ?, ?)",
        [(i, t, author_ids[a], g, y, p) for i, (t, a, g, y, p) in enumerate(_BOOKS, start=1)],
    )

    first_names = _FIRST_NAMES["F"] + _FIRST_NAMES["M"]
    names = rng.sample([f"{first} {last}" for first in first_names for last in _LAST_NAMES], _MEMBER_COUNT)
    members = []
    for member_id, name in enumerate(names, start=1):
        joined = date(2019, 1, 1) + timedelta(days=rng.randrange(4 * 365))
        members.append((member_id, name, rng.choice(_MEMBER_CITIES), joined.isoformat(), int(rng.random() < 0.35)))
    connection.executemany("INSERT INTO member VALUES (?, ?, ?, ?, ?)", members)

    # Some books are never lent out ("which books were never borrowed?"); popular ones are drawn more often.
    lendable = rng.sample(range(1, len(_BOOKS) + 1), len(_BOOKS) - 6)
    popularity = [rng.choice([1, 1, 2, 3, 5]) for _ in lendable]
    # A few avid readers borrow far more than the rest, so "members with more than N loans" has a clear answer.
    activity = [rng.choice([1, 1, 1, 2, 2, 4, 8]) for _ in members]
    loans = []
    for loan_id in range(1, _LOAN_COUNT + 1):
        book_id = rng.choices(lendable, weights=popularity)[0]
        member_id = rng.choices(range(1, _MEMBER_COUNT + 1), weights=activity)[0]
        start = date(2023, 1, 1) + timedelta(days=rng.randrange(540))
        due = start + timedelta(days=21)
        returned = start + timedelta(days=rng.randint(3, 30))
        returned_text = returned.isoformat() if returned <= _LIBRARY_TODAY else None
        loans.append((loan_id, book_id, member_id, start.isoformat(), due.isoformat(), returned_text))
    loans.sort(key=lambda row: (row[3], row[0]))
    # Loan ids follow the loan dates, as a real circulation system would number them.
    loans = [(i, *row[1:]) for i, row in enumerate(loans, start=1)]
    connection.executemany("INSERT INTO loan VALUES (?, ?, ?, ?, ?, ?)", loans)


# --------------------------------------------------------------------------------------------------------------------
# flights_demo

_FLIGHTS_SCHEMA = """
CREATE TABLE airline (
    airline_id INTEGER PRIMARY KEY,
    name       VARCHAR(60) NOT NULL,
    iata_code  CHAR(2) NOT NULL,
    country    VARCHAR(40)
);
CREATE TABLE airport (
    airport_code CHAR(3) PRIMARY KEY,
    name         VARCHAR(80) NOT NULL,
    city         VARCHAR(40) NOT NULL,
    country      VARCHAR(40) NOT NULL,
    latitude     REAL,
    longitude    REAL
);
CREATE TABLE flight (
    flight_id        INTEGER PRIMARY KEY,
    airline_id       INTEGER NOT NULL,
    flight_number    VARCHAR(8) NOT NULL,
    origin           CHAR(3) NOT NULL,
    destination      CHAR(3) NOT NULL,
    departure_time   TIME,
    duration_minutes INTEGER,
    price            DECIMAL(8, 2),
    FOREIGN KEY (airline_id) REFERENCES airline(airline_id),
    FOREIGN KEY (origin) REFERENCES airport(airport_code),
    FOREIGN KEY (destination) REFERENCES airport(airport_code)
);
"""

_AIRPORTS = [
    ("JFK", "John F. Kennedy International Airport", "New York", "United States", 40.64, -73.78),
    ("LGA", "LaGuardia Airport", "New York", "United States", 40.78, -73.87),
    ("BOS", "Logan International Airport", "Boston", "United States", 42.36, -71.01),
    ("ORD", "O'Hare International Airport", "Chicago", "United States", 41.98, -87.90),
    ("ATL", "Hartsfield-Jackson Atlanta International Airport", "Atlanta", "United States", 33.64, -84.43),
    ("DFW", "Dallas/Fort Worth International Airport", "Dallas", "United States", 32.90, -97.04),
    ("DEN", "Denver International Airport", "Denver", "United States", 39.86, -104.67),
    ("SEA", "Seattle-Tacoma International Airport", "Seattle", "United States", 47.45, -122.31),
    ("SFO", "San Francisco International Airport", "San Francisco", "United States", 37.62, -122.38),
    ("LAX", "Los Angeles International Airport", "Los Angeles", "United States", 33.94, -118.41),
    ("MIA", "Miami International Airport", "Miami", "United States", 25.80, -80.29),
    ("YYZ", "Toronto Pearson International Airport", "Toronto", "Canada", 43.68, -79.63),
    ("LHR", "Heathrow Airport", "London", "United Kingdom", 51.47, -0.45),
    ("CDG", "Charles de Gaulle Airport", "Paris", "France", 49.01, 2.55),
    ("FRA", "Frankfurt Airport", "Frankfurt", "Germany", 50.04, 8.56),
    ("AMS", "Amsterdam Airport Schiphol", "Amsterdam", "Netherlands", 52.31, 4.76),
    ("HND", "Haneda Airport", "Tokyo", "Japan", 35.55, 139.78),
    # Served by nobody yet: an airport with no flights at all, for questions about what is missing.
    ("ANC", "Ted Stevens Anchorage International Airport", "Anchorage", "United States", 61.17, -149.99),
]
# (name, IATA code, country, hubs, destinations). Routes go from each hub to each destination and back.
_AIRLINES = [
    ("United Airlines", "UA", "United States", ["ORD", "SFO", "DEN"], ["BOS", "LAX", "SEA", "MIA", "LHR", "HND"]),
    ("Delta Air Lines", "DL", "United States", ["ATL", "JFK"], ["BOS", "LAX", "SEA", "MIA", "CDG", "AMS"]),
    ("American Airlines", "AA", "United States", ["DFW", "MIA"], ["LGA", "ORD", "LAX", "DEN", "LHR"]),
    ("JetBlue Airways", "B6", "United States", ["JFK", "BOS"], ["MIA", "LAX", "SFO"]),
    ("Alaska Airlines", "AS", "United States", ["SEA"], ["SFO", "LAX", "DEN"]),
    ("Air Canada", "AC", "Canada", ["YYZ"], ["LGA", "ORD", "SFO", "LHR", "FRA"]),
    ("British Airways", "BA", "United Kingdom", ["LHR"], ["JFK", "BOS", "ORD", "CDG"]),
    ("Lufthansa", "LH", "Germany", ["FRA"], ["JFK", "ORD", "AMS", "HND"]),
    ("Air France", "AF", "France", ["CDG"], ["JFK", "ATL"]),
    ("Japan Airlines", "JL", "Japan", ["HND"], ["SFO", "LAX"]),
]


def _distance_km(a: tuple, b: tuple) -> float:
    lat1, lon1, lat2, lon2 = map(math.radians, (a[4], a[5], b[4], b[5]))
    haversine = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * 6371 * math.asin(math.sqrt(haversine))


def _fill_flights(connection: sqlite3.Connection, rng: random.Random) -> None:
    airports = {row[0]: row for row in _AIRPORTS}
    connection.executemany("INSERT INTO airport VALUES (?, ?, ?, ?, ?, ?)", _AIRPORTS)
    connection.executemany(
        "INSERT INTO airline VALUES (?, ?, ?, ?)",
        [(i, name, code, country) for i, (name, code, country, _, _) in enumerate(_AIRLINES, start=1)],
    )
    flights = []
    for airline_id, (_, code, _, hubs, destinations) in enumerate(_AIRLINES, start=1):
        number = 100
        for hub in hubs:
            for destination in destinations:
                if destination == hub:
                    continue
                km = _distance_km(airports[hub], airports[destination])
                # Half an hour of taxiing and climbing plus cruise at about 820 km/h.
                minutes = int(round(30 + km / 820 * 60))
                for origin, target in ((hub, destination), (destination, hub)):
                    number += rng.randint(1, 9)
                    departure = f"{rng.randint(6, 22):02d}:{rng.choice([0, 10, 15, 25, 30, 40, 45, 55]):02d}"
                    price = round(59 + km * rng.uniform(0.07, 0.13), 2)
                    flights.append((airline_id, f"{code}{number}", origin, target, departure, minutes, price))
    connection.executemany(
        "INSERT INTO flight VALUES (?, ?, ?, ?, ?, ?, ?, ?)", [(i, *row) for i, row in enumerate(flights, start=1)]
    )


# --------------------------------------------------------------------------------------------------------------------

_BUILDERS: dict[str, tuple[str, Callable[[sqlite3.Connection, random.Random], None], int]] = {
    "dorm_demo": (_DORM_SCHEMA, _fill_dorm, 1001),
    "library_demo": (_LIBRARY_SCHEMA, _fill_library, 2002),
    "flights_demo": (_FLIGHTS_SCHEMA, _fill_flights, 3003),
}


def _build_one(path: Path, schema: str, fill, seed: int) -> None:
    # Build beside the target and move it into place, so a reader never sees a half-written database.
    partial = path.with_name(path.name + ".partial")
    partial.unlink(missing_ok=True)
    with closing(sqlite3.connect(partial)) as connection:
        connection.executescript(schema)
        with connection:
            fill(connection, random.Random(seed))
    os.replace(partial, path)


def build_demo_databases(target_dir: Path) -> dict[str, Path]:
    """Create (or overwrite) the demo databases as `<target_dir>/<db_id>/<db_id>.sqlite`; return db_id -> path.

    The files are deterministic: the same code and SQLite library always produce the same bytes.
    """
    paths = {}
    for db_id, (schema, fill, seed) in _BUILDERS.items():
        folder = Path(target_dir) / db_id
        folder.mkdir(parents=True, exist_ok=True)
        paths[db_id] = folder / f"{db_id}.sqlite"
        _build_one(paths[db_id], schema, fill, seed)
    return paths


DEMO_GOALS: list[dict] = [
    # dorm_demo
    {
        "db_id": "dorm_demo",
        "question": "Which dorms have a TV lounge but no study room?",
        "sql": "SELECT T1.dorm_name FROM dorm AS T1 JOIN has_amenity AS T2 ON T1.dorm_id = T2.dorm_id "
        "JOIN dorm_amenity AS T3 ON T2.amenity_id = T3.amenity_id WHERE T3.amenity_name = 'TV Lounge' "
        "EXCEPT SELECT T1.dorm_name FROM dorm AS T1 JOIN has_amenity AS T2 ON T1.dorm_id = T2.dorm_id "
        "JOIN dorm_amenity AS T3 ON T2.amenity_id = T3.amenity_id WHERE T3.amenity_name = 'Study Room'",
    },
    {
        "db_id": "dorm_demo",
        "question": "For each dorm with more than 6 residents, how many students live there?",
        "sql": "SELECT T1.dorm_name, count(*) FROM dorm AS T1 JOIN lives_in AS T2 ON T1.dorm_id = T2.dorm_id "
        "GROUP BY T1.dorm_id HAVING count(*) > 6",
    },
    {
        "db_id": "dorm_demo",
        "question": "Which students are older than the average Computer Science student? Give first and last names.",
        "sql": "SELECT first_name, last_name FROM student "
        "WHERE age > (SELECT avg(age) FROM student WHERE major = 'Computer Science')",
    },
    {
        "db_id": "dorm_demo",
        "question": "Which dorm has the most amenities?",
        "sql": "SELECT T1.dorm_name FROM dorm AS T1 JOIN has_amenity AS T2 ON T1.dorm_id = T2.dorm_id "
        "GROUP BY T1.dorm_id ORDER BY count(*) DESC LIMIT 1",
    },
    {
        "db_id": "dorm_demo",
        "question": "What is the average age of the students in each dorm that has a gym?",
        "sql": "SELECT T1.dorm_name, avg(T3.age) FROM dorm AS T1 JOIN lives_in AS T2 ON T1.dorm_id = T2.dorm_id "
        "JOIN student AS T3 ON T2.student_id = T3.student_id WHERE T1.dorm_id IN "
        "(SELECT T4.dorm_id FROM has_amenity AS T4 JOIN dorm_amenity AS T5 ON T4.amenity_id = T5.amenity_id "
        "WHERE T5.amenity_name = 'Gym') GROUP BY T1.dorm_id",
    },
    # library_demo
    {
        "db_id": "library_demo",
        "question": "Which members have borrowed more than 8 books, and how many loans has each of them had?",
        "sql": "SELECT T1.name, count(*) FROM member AS T1 JOIN loan AS T2 ON T1.member_id = T2.member_id "
        "GROUP BY T1.member_id HAVING count(*) > 8",
    },
    {
        "db_id": "library_demo",
        "question": "What are the titles of the books that have never been borrowed?",
        "sql": "SELECT title FROM book WHERE book_id NOT IN (SELECT book_id FROM loan)",
    },
    {
        "db_id": "library_demo",
        "question": "Whose books have been borrowed most often?",
        "sql": "SELECT T1.name FROM author AS T1 JOIN book AS T2 ON T1.author_id = T2.author_id "
        "JOIN loan AS T3 ON T2.book_id = T3.book_id GROUP BY T1.author_id ORDER BY count(*) DESC LIMIT 1",
    },
    {
        "db_id": "library_demo",
        "question": "For each genre with at least three books, what is the average number of pages?",
        "sql": "SELECT genre, avg(pages) FROM book GROUP BY genre HAVING count(*) >= 3",
    },
    {
        "db_id": "library_demo",
        "question": "Which books by British authors published before 1900 have been borrowed by students?",
        "sql": "SELECT DISTINCT T1.title FROM book AS T1 JOIN author AS T2 ON T1.author_id = T2.author_id "
        "JOIN loan AS T3 ON T1.book_id = T3.book_id JOIN member AS T4 ON T3.member_id = T4.member_id "
        "WHERE T2.country = 'United Kingdom' AND T1.published_year < 1900 AND T4.is_student = 1",
    },
    # flights_demo
    {
        "db_id": "flights_demo",
        "question": "Which airline operates the most flights out of Chicago?",
        "sql": "SELECT T1.name FROM airline AS T1 JOIN flight AS T2 ON T1.airline_id = T2.airline_id "
        "JOIN airport AS T3 ON T2.origin = T3.airport_code WHERE T3.city = 'Chicago' "
        "GROUP BY T1.airline_id ORDER BY count(*) DESC LIMIT 1",
    },
    {
        "db_id": "flights_demo",
        "question": "Which airports have no departing flights?",
        "sql": "SELECT name FROM airport WHERE airport_code NOT IN (SELECT origin FROM flight)",
    },
    {
        "db_id": "flights_demo",
        "question": "What is the average ticket price of each airline that has more than 20 flights?",
        "sql": "SELECT T1.name, avg(T2.price) FROM airline AS T1 JOIN flight AS T2 ON T1.airline_id = T2.airline_id "
        "GROUP BY T1.airline_id HAVING count(*) > 20",
    },
    {
        "db_id": "flights_demo",
        "question": "List the flight numbers and destinations of the flights that take longer than the average flight.",
        "sql": "SELECT flight_number, destination FROM flight "
        "WHERE duration_minutes > (SELECT avg(duration_minutes) FROM flight)",
    },
    {
        "db_id": "flights_demo",
        "question": "Which cities can be reached both with United Airlines and with Delta Air Lines?",
        "sql": "SELECT T3.city FROM airline AS T1 JOIN flight AS T2 ON T1.airline_id = T2.airline_id "
        "JOIN airport AS T3 ON T2.destination = T3.airport_code WHERE T1.name = 'United Airlines' "
        "INTERSECT SELECT T3.city FROM airline AS T1 JOIN flight AS T2 ON T1.airline_id = T2.airline_id "
        "JOIN airport AS T3 ON T2.destination = T3.airport_code WHERE T1.name = 'Delta Air Lines'",
    },
]


DEMO_PASSWORD = "wozsql-demo"


DEMO_ACCOUNTS = [
    ("alice", Role.WORKER),
    ("bob", Role.WORKER),
    ("erin", Role.EXPERT),
    ("ethan", Role.EXPERT),
    ("rita", Role.REVIEWER),
    ("ravi", Role.REVIEWER),  # a second reviewer: pass 2 is never done by the pass-1 reviewer
    ("ada", Role.ADMIN),
]


def demo_load() -> dict:
    """Build the demo databases, register them with their goals, create the demo accounts. Safe to run again."""
    build_dir = Path(settings.DATA_DIR) / "demo-build"
    paths = build_demo_databases(build_dir)
    registered = 0
    for db_id, path in paths.items():
        existing = Database.objects.filter(db_id=db_id).first()
        if existing and existing.sha256 == _sha256(path):
            continue
        database_register(
            db_id=db_id, source_path=path, description="Demo database built by wozsql", replace=existing is not None
        )
        registered += 1
    goals = 0
    for spec in DEMO_GOALS:
        database = Database.objects.get(db_id=spec["db_id"])
        if Goal.objects.filter(database=database, question=spec["question"], sql=spec["sql"]).exists():
            continue
        goal_create(database=database, question=spec["question"], sql=spec["sql"], source=Goal.Source.DEMO)
        goals += 1
    accounts = []
    for username, role in DEMO_ACCOUNTS:
        if not User.objects.filter(username=username).exists():
            person_create(username=username, role=role, password=DEMO_PASSWORD)
        accounts.append({"username": username, "role": role, "password": DEMO_PASSWORD})
    demo_accounts_made.send(sender=None, usernames=[account["username"] for account in accounts])
    return {
        "message": f"Demo data ready: {len(paths)} databases ({registered} updated), {goals} new goals.",
        "accounts": accounts,
    }
