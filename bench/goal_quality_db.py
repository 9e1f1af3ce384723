"""Databases for measuring generated goals on schemas nobody tuned the sampler to (bench/goal_quality.py).

The hotel chain (`build_hotel_database`, eight tables), on which the rules of annotation.goals.rules were written:
two link tables (booking_service, room_amenity), codes stored as text and as numbers (country_code, channel_code,
zip_code, loyalty_no), floors, years, genders, unique names, and tables of very different sizes (8 hotels, ~1,000
bookings).

The football league (`build_football_database`, nine tables), made as a held-out database before the sampler was
run on it: two seasons of a ten-club league. Link tables with composite keys (contract: player, club and season;
appearance: match and player), codes as text (nationality, position, foot) and as numbers (region_code,
registration_no), ordinals (season_yr, matchday, shirt_no, licence_grade, the minute of a goal or a card), dates
(birth_date, kickoff), unique names, NULLs (attendance, capacity, nationality, region_code), two foreign keys to one
table (home and away club), and a column whose name misleads: caps_no is a count of international caps, not an
identifier.

Usage: .venv/bin/python bench/goal_quality_db.py OUT.sqlite [--seed 35] [--database hotel|football]
"""

import argparse
import random
import sqlite3
from datetime import date, timedelta
from pathlib import Path

SCHEMA = """
CREATE TABLE hotel (
    hotel_id INTEGER PRIMARY KEY,
    hotel_name TEXT NOT NULL UNIQUE,
    city TEXT NOT NULL,
    zip_code INTEGER,
    star_rating INTEGER,
    opened_year INTEGER,
    phone TEXT
);
CREATE TABLE room (
    room_id INTEGER PRIMARY KEY,
    hotel_id INTEGER NOT NULL REFERENCES hotel (hotel_id),
    room_no INTEGER NOT NULL,
    flr INTEGER NOT NULL,
    room_type TEXT NOT NULL,
    nightly_rate REAL NOT NULL,
    max_guests INTEGER NOT NULL
);
CREATE TABLE guest (
    guest_id INTEGER PRIMARY KEY,
    full_name TEXT NOT NULL UNIQUE,
    gender TEXT NOT NULL,
    birth_year INTEGER,
    country_code TEXT,
    loyalty_no INTEGER UNIQUE,
    member_since_yr INTEGER
);
CREATE TABLE booking (
    booking_id INTEGER PRIMARY KEY,
    guest_id INTEGER NOT NULL REFERENCES guest (guest_id),
    room_id INTEGER NOT NULL REFERENCES room (room_id),
    check_in TEXT NOT NULL,
    nights INTEGER NOT NULL,
    total_price REAL NOT NULL,
    status TEXT NOT NULL,
    channel_code TEXT NOT NULL
);
CREATE TABLE service (
    service_id INTEGER PRIMARY KEY,
    service_name TEXT NOT NULL UNIQUE,
    category TEXT NOT NULL,
    price REAL NOT NULL
);
CREATE TABLE booking_service (
    booking_id INTEGER NOT NULL REFERENCES booking (booking_id),
    service_id INTEGER NOT NULL REFERENCES service (service_id),
    quantity INTEGER NOT NULL,
    PRIMARY KEY (booking_id, service_id)
);
CREATE TABLE amenity (
    amenity_id INTEGER PRIMARY KEY,
    amenity_name TEXT NOT NULL UNIQUE,
    amenity_code TEXT NOT NULL UNIQUE
);
CREATE TABLE room_amenity (
    room_id INTEGER NOT NULL REFERENCES room (room_id),
    amenity_id INTEGER NOT NULL REFERENCES amenity (amenity_id),
    PRIMARY KEY (room_id, amenity_id)
);
"""

HOTELS = [
    ("Harbour Lights", "Lisbon", 1100),
    ("The Old Mill", "Porto", 4000),
    ("Alpine Lodge", "Innsbruck", 6020),
    ("Canal House", "Amsterdam", 1012),
    ("Seaside Grand", "Nice", 6000),
    ("Park Terrace", "Vienna", 1010),
    ("Riverside Inn", "Porto", 4050),
    ("Castle View", "Edinburgh", 1234),
]
FIRST = {
    "F": ["Ana", "Maria", "Sofia", "Lena", "Emma", "Claire", "Ines", "Julia", "Nora", "Eva", "Chloe", "Marta"],
    "M": ["João", "Pedro", "Lukas", "Jan", "Hugo", "Tom", "Rui", "Felix", "Liam", "Noah", "Paul", "Marco"],
}
LAST = [
    "Silva", "Santos", "Müller", "de Vries", "Martin", "Bernard", "Gruber", "Smith", "Brown", "Costa",
    "Wagner", "Janssen", "Dubois", "Taylor", "Ferreira", "Huber", "Bakker", "Moreau", "Wilson", "Pereira",
]  # fmt: skip
COUNTRIES = ["PT", "DE", "NL", "FR", "AT", "GB", "US", "ES", "IT"]
ROOM_TYPES = [("Single", 1, 80.0), ("Double", 2, 120.0), ("Family", 4, 170.0), ("Suite", 3, 260.0)]
SERVICES = [
    ("Breakfast buffet", "Food", 18.0),
    ("Dinner menu", "Food", 42.0),
    ("Room service", "Food", 25.0),
    ("Spa access", "Wellness", 35.0),
    ("Massage", "Wellness", 70.0),
    ("Sauna", "Wellness", 15.0),
    ("Airport transfer", "Transport", 45.0),
    ("Bike rental", "Transport", 12.0),
    ("Parking", "Transport", 20.0),
    ("Laundry", "Housekeeping", 16.0),
    ("Late checkout", "Housekeeping", 30.0),
    ("City tour", "Leisure", 55.0),
]
AMENITIES = [
    ("Wi-Fi", "WIFI"),
    ("Minibar", "MBAR"),
    ("Balcony", "BALC"),
    ("Sea view", "SVIEW"),
    ("Bathtub", "BTUB"),
    ("Air conditioning", "AC"),
    ("Coffee machine", "COFF"),
    ("Safe", "SAFE"),
    ("Kitchenette", "KITCH"),
    ("Desk", "DESK"),
]


def _hotel_bookings(connection: sqlite3.Connection, rng: random.Random, rooms: list, guests: list) -> None:
    """The bookings, the services booked with them, the amenities and the rooms' amenities."""
    start = date(2024, 1, 1)
    for booking_id in range(1, 1001):
        room, rate = rng.choice(rooms)
        nights = rng.choice([1, 1, 2, 2, 2, 3, 3, 4, 5, 7, 10, 14])
        status = rng.choices(["completed", "cancelled", "confirmed", "no-show"], weights=[70, 12, 15, 3])[0]
        connection.execute(
            "INSERT INTO booking VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                booking_id,
                rng.choice(guests),
                room,
                (start + timedelta(days=rng.randint(0, 700))).isoformat(),
                nights,
                round(rate * nights, 2),
                status,
                rng.choices(["WEB", "TEL", "AGT", "OTA"], weights=[50, 10, 15, 25])[0],
            ),
        )
    for service_id, (name, category, price) in enumerate(SERVICES, start=1):
        connection.execute("INSERT INTO service VALUES (?, ?, ?, ?)", (service_id, name, category, price))
    for booking_id in range(1, 1001):
        for service_id in rng.sample(range(1, len(SERVICES) + 1), rng.choice([0, 0, 1, 1, 2, 3])):
            connection.execute(
                "INSERT INTO booking_service VALUES (?, ?, ?)", (booking_id, service_id, rng.randint(1, 4))
            )
    for amenity_id, (name, code) in enumerate(AMENITIES, start=1):
        connection.execute("INSERT INTO amenity VALUES (?, ?, ?)", (amenity_id, name, code))
    for room, _rate in rooms:
        for amenity_id in rng.sample(range(1, len(AMENITIES) + 1), rng.randint(2, 6)):
            connection.execute("INSERT INTO room_amenity VALUES (?, ?)", (room, amenity_id))


def build_hotel_database(path: str | Path, seed: int = 35) -> Path:
    """Write the hotel database to `path` (replacing it) from `seed`; the same seed gives the same file."""
    path = Path(path)
    path.unlink(missing_ok=True)
    rng = random.Random(seed)
    connection = sqlite3.connect(path)
    connection.executescript(SCHEMA)
    for hotel_id, (name, city, zip_code) in enumerate(HOTELS, start=1):
        connection.execute(
            "INSERT INTO hotel VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                hotel_id,
                name,
                city,
                zip_code,
                rng.choice([3, 3, 4, 4, 4, 5]),
                rng.randint(1962, 2019),
                f"+{rng.randint(30, 49)} {rng.randint(100, 999)} {rng.randint(100000, 999999)}",
            ),
        )
    room_id = 0
    rooms = []
    for hotel_id in range(1, len(HOTELS) + 1):
        for floor in range(1, rng.randint(3, 7) + 1):
            for number in range(1, rng.randint(3, 6) + 1):
                room_id += 1
                kind, guests, rate = rng.choices(ROOM_TYPES, weights=[3, 6, 2, 1])[0]
                rate = round(rate * rng.uniform(0.8, 1.5), 2)
                rooms.append((room_id, rate))
                connection.execute(
                    "INSERT INTO room VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (room_id, hotel_id, floor * 100 + number, floor, kind, rate, guests),
                )
    names = set()
    guests = []
    while len(guests) < 260:
        gender = rng.choice("MF")
        name = f"{rng.choice(FIRST[gender])} {rng.choice(LAST)}"
        if name in names:
            continue
        names.add(name)
        guest_id = len(guests) + 1
        guests.append(guest_id)
        member = rng.random() < 0.6
        connection.execute(
            "INSERT INTO guest VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                guest_id,
                name,
                gender,
                rng.randint(1945, 2004),
                rng.choice(COUNTRIES),
                700000 + guest_id if member else None,
                rng.randint(2008, 2025) if member else None,
            ),
        )
    _hotel_bookings(connection, rng, rooms, guests)
    connection.commit()
    connection.close()
    return path


FOOTBALL_SCHEMA = """
CREATE TABLE stadium (
    stadium_id INTEGER PRIMARY KEY,
    stadium_name TEXT NOT NULL UNIQUE,
    city TEXT NOT NULL,
    capacity INTEGER,
    opened INTEGER
);
CREATE TABLE club (
    club_id INTEGER PRIMARY KEY,
    club_name TEXT NOT NULL UNIQUE,
    short_code TEXT NOT NULL UNIQUE,
    founded_year INTEGER NOT NULL,
    stadium_id INTEGER NOT NULL REFERENCES stadium (stadium_id),
    colours TEXT
);
CREATE TABLE player (
    player_id INTEGER PRIMARY KEY,
    full_name TEXT NOT NULL UNIQUE,
    birth_date TEXT NOT NULL,
    nationality TEXT,
    position TEXT NOT NULL,
    foot TEXT NOT NULL,
    height_cm INTEGER,
    caps_no INTEGER NOT NULL,
    registration_no INTEGER NOT NULL UNIQUE
);
CREATE TABLE contract (
    player_id INTEGER NOT NULL REFERENCES player (player_id),
    club_id INTEGER NOT NULL REFERENCES club (club_id),
    season_yr INTEGER NOT NULL,
    shirt_no INTEGER NOT NULL,
    weekly_wage INTEGER NOT NULL,
    PRIMARY KEY (player_id, club_id, season_yr)
);
CREATE TABLE referee (
    referee_id INTEGER PRIMARY KEY,
    referee_name TEXT NOT NULL UNIQUE,
    licence_grade INTEGER NOT NULL,
    region_code INTEGER,
    debut_year INTEGER
);
CREATE TABLE fixture (
    fixture_id INTEGER PRIMARY KEY,
    season_yr INTEGER NOT NULL,
    matchday INTEGER NOT NULL,
    kickoff TEXT NOT NULL,
    home_club_id INTEGER NOT NULL REFERENCES club (club_id),
    away_club_id INTEGER NOT NULL REFERENCES club (club_id),
    referee_id INTEGER REFERENCES referee (referee_id),
    home_goals INTEGER NOT NULL,
    away_goals INTEGER NOT NULL,
    attendance INTEGER
);
CREATE TABLE appearance (
    fixture_id INTEGER NOT NULL REFERENCES fixture (fixture_id),
    player_id INTEGER NOT NULL REFERENCES player (player_id),
    minutes_played INTEGER NOT NULL,
    started TEXT NOT NULL,
    PRIMARY KEY (fixture_id, player_id)
);
CREATE TABLE goal_event (
    goal_event_id INTEGER PRIMARY KEY,
    fixture_id INTEGER NOT NULL REFERENCES fixture (fixture_id),
    player_id INTEGER NOT NULL REFERENCES player (player_id),
    minute INTEGER NOT NULL,
    kind TEXT NOT NULL
);
CREATE TABLE booking_card (
    fixture_id INTEGER NOT NULL REFERENCES fixture (fixture_id),
    player_id INTEGER NOT NULL REFERENCES player (player_id),
    minute INTEGER NOT NULL,
    colour TEXT NOT NULL,
    PRIMARY KEY (fixture_id, player_id, minute)
);
"""

CLUBS = [
    ("Northbridge Rovers", "NBR", "Northbridge", "blue and white"),
    ("Eastfield United", "EFU", "Eastfield", "red"),
    ("Port Ellis Athletic", "PEA", "Port Ellis", None),
    ("Kingsmoor Town", "KMT", "Kingsmoor", "yellow and black"),
    ("Ashby Wanderers", "ASW", "Ashby", "green"),
    ("Redcliff City", "RCC", "Redcliff", "sky blue"),
    ("Harlow Vale", "HVA", "Harlow", "claret"),
    ("Southgate Albion", "SGA", "Southgate", "white"),
    ("Millbrook Borough", "MBB", "Millbrook", None),
    ("Westerly FC", "WFC", "Westerly", "orange"),
]
STADIUMS = [
    ("Bridge Park", "Northbridge", 32000, 1923),
    ("The Foundry", "Eastfield", 27500, 1998),
    ("Ellis Road", "Port Ellis", None, 1908),
    ("Moor Lane", "Kingsmoor", 18400, 1931),
    ("Wanderers Ground", "Ashby", 12150, 1956),
    ("Cliff Top Arena", "Redcliff", 41000, 2006),
    ("Vale Stadium", "Harlow", 15800, 1972),
    ("Albion Fields", "Southgate", None, 1899),
    ("Borough Meadow", "Millbrook", 9800, 1964),
]
PLAYER_FIRST = [
    "Adam",
    "Ben",
    "Carlos",
    "Dario",
    "Eli",
    "Finn",
    "Goran",
    "Hamza",
    "Ivan",
    "Jonas",
    "Kofi",
    "Luca",
    "Mateo",
    "Nils",
    "Omar",
    "Pavel",
    "Quinn",
    "Rafael",
    "Sami",
    "Theo",
    "Ugo",
    "Viktor",
    "Wes",
    "Yusuf",
]
PLAYER_LAST = [
    "Abbott",
    "Baker",
    "Costa",
    "Diallo",
    "Evans",
    "Fischer",
    "Garcia",
    "Hughes",
    "Ibrahim",
    "Jensen",
    "Kovac",
    "Lindqvist",
    "Mensah",
    "Novak",
    "Okafor",
    "Perez",
    "Quinn",
    "Rossi",
    "Silva",
    "Turner",
    "Usman",
    "Varga",
    "Walsh",
    "Young",
]
NATIONALITIES = ["ENG", "ENG", "ENG", "SCO", "IRL", "WAL", "FRA", "ESP", "NGA", "GHA", "BRA", "NED", "DEN", "POL"]
POSITIONS = ["GK"] * 3 + ["DF"] * 8 + ["MF"] * 8 + ["FW"] * 6
REFEREES = [
    "Alan Marsh",
    "Beth Lowry",
    "Colin Pratt",
    "Dev Sharma",
    "Erin Cole",
    "Frank Hale",
    "Grace Oduya",
    "Hugh Bennet",
    "Iris Kane",
    "Joel Webb",
    "Kate Morrow",
    "Liam Stroud",
]


def _football_players(connection: sqlite3.Connection, rng: random.Random) -> list[int]:
    names: set[str] = set()
    players: list[int] = []
    while len(players) < 250:
        name = f"{rng.choice(PLAYER_FIRST)} {rng.choice(PLAYER_LAST)}"
        if name in names:
            continue
        names.add(name)
        player_id = len(players) + 1
        position = rng.choice(POSITIONS)
        height = rng.randint(185, 198) if position == "GK" else rng.randint(166, 194)
        born = date(1988, 1, 1) + timedelta(days=rng.randint(0, 5800))
        players.append(player_id)
        connection.execute(
            "INSERT INTO player VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                player_id,
                name,
                born.isoformat(),
                rng.choice(NATIONALITIES) if rng.random() < 0.9 else None,
                position,
                rng.choices(["right", "left", "both"], weights=[70, 25, 5])[0],
                height if rng.random() < 0.93 else None,
                rng.choices([0, rng.randint(1, 12), rng.randint(13, 90)], weights=[60, 28, 12])[0],
                rng.randint(100000, 999999) * 10 + player_id % 10,
            ),
        )
    return players


def _football_contracts(connection: sqlite3.Connection, rng: random.Random, players: list[int]) -> dict:
    """Each season's squads, (season, club) -> players, written as contracts."""
    squads: dict[tuple[int, int], list[int]] = {}
    for season in (2023, 2024):
        order = list(players)
        rng.shuffle(order)
        for position, player_id in enumerate(order[:240]):
            squads.setdefault((season, position % len(CLUBS) + 1), []).append(player_id)
        for (squad_season, club_id), members in squads.items():
            if squad_season != season:
                continue
            shirts = rng.sample(range(1, 40), len(members))
            for player_id, shirt in zip(members, shirts, strict=True):
                connection.execute(
                    "INSERT INTO contract VALUES (?, ?, ?, ?, ?)",
                    (player_id, club_id, season, shirt, rng.randrange(8, 160) * 500),
                )
    return squads


def _football_side(connection: sqlite3.Connection, rng: random.Random, fixture_id: int, squad: list, scored: int):
    """One club's appearances, goals and cards in a fixture."""
    playing = rng.sample(squad, min(len(squad), rng.randint(13, 16)))
    for position, player_id in enumerate(playing):
        started = position < 11
        minutes = rng.choice([90, 90, 90, 85, 78, 70, 64]) if started else rng.randint(5, 35)
        connection.execute(
            "INSERT INTO appearance VALUES (?, ?, ?, ?)", (fixture_id, player_id, minutes, "yes" if started else "no")
        )
    kinds = ["open play", "header", "penalty", "free kick", "own goal"]
    for _ in range(scored):
        kind = rng.choices(kinds, [60, 20, 10, 6, 4])[0]
        connection.execute(
            "INSERT INTO goal_event (fixture_id, player_id, minute, kind) VALUES (?, ?, ?, ?)",
            (fixture_id, rng.choice(playing), rng.randint(1, 94), kind),
        )
    for player_id in rng.sample(playing, rng.choice([0, 1, 1, 2, 2, 3])):
        connection.execute(
            "INSERT INTO booking_card VALUES (?, ?, ?, ?)",
            (fixture_id, player_id, rng.randint(3, 93), rng.choices(["yellow", "red"], [93, 7])[0]),
        )


def _football_fixtures(connection: sqlite3.Connection, rng: random.Random, squads: dict) -> None:
    fixture_id = 0
    for season in (2023, 2024):
        pairs = [(home, away) for home in range(1, 11) for away in range(1, 11) if home != away]
        rng.shuffle(pairs)
        start = date(season, 8, 5)
        for number, (home, away) in enumerate(pairs):
            fixture_id += 1
            matchday = number // 5 + 1
            kickoff = start + timedelta(days=7 * (matchday - 1) + rng.choice([0, 0, 1, -1]))
            home_goals = rng.choices(range(6), weights=[22, 33, 25, 12, 6, 2])[0]
            away_goals = rng.choices(range(5), weights=[32, 35, 20, 9, 4])[0]
            capacity = STADIUMS[home - 1][2] if home <= len(STADIUMS) else STADIUMS[5][2]
            attendance = int((capacity or 20000) * rng.uniform(0.55, 1.0)) if rng.random() < 0.9 else None
            referee = rng.randint(1, len(REFEREES)) if rng.random() < 0.95 else None
            connection.execute(
                "INSERT INTO fixture VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (fixture_id, season, matchday, kickoff.isoformat(), home, away, referee, home_goals, away_goals)
                + (attendance,),
            )
            for club_id, scored in ((home, home_goals), (away, away_goals)):
                _football_side(connection, rng, fixture_id, squads[(season, club_id)], scored)


def build_football_database(path: str | Path, seed: int = 35) -> Path:
    """Write the football league database to `path` (replacing it) from `seed`; the same seed gives the same file."""
    path = Path(path)
    path.unlink(missing_ok=True)
    rng = random.Random(seed)
    connection = sqlite3.connect(path)
    connection.executescript(FOOTBALL_SCHEMA)
    for stadium_id, (name, city, capacity, opened) in enumerate(STADIUMS, start=1):
        connection.execute("INSERT INTO stadium VALUES (?, ?, ?, ?, ?)", (stadium_id, name, city, capacity, opened))
    for club_id, (name, code, _city, colours) in enumerate(CLUBS, start=1):
        stadium = club_id if club_id <= len(STADIUMS) else 6  # the tenth club shares the largest ground
        founded = rng.randint(1870, 1935)
        connection.execute(
            "INSERT INTO club VALUES (?, ?, ?, ?, ?, ?)", (club_id, name, code, founded, stadium, colours)
        )
    squads = _football_contracts(connection, rng, _football_players(connection, rng))
    for referee_id, name in enumerate(REFEREES, start=1):
        grade = rng.choice([1, 1, 2, 2, 2, 3, 3, 4])
        region = rng.choice([11, 12, 21, 22, 31]) if rng.random() < 0.8 else None
        debut = rng.randint(2001, 2021) if rng.random() < 0.85 else None
        connection.execute("INSERT INTO referee VALUES (?, ?, ?, ?, ?)", (referee_id, name, grade, region, debut))
    _football_fixtures(connection, rng, squads)
    connection.commit()
    connection.close()
    return path


BUILDERS = {"hotel": build_hotel_database, "football": build_football_database}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("--seed", type=int, default=35)
    parser.add_argument("--database", choices=sorted(BUILDERS), default="hotel")
    options = parser.parse_args()
    BUILDERS[options.database](options.out, options.seed)
    print(options.out)


if __name__ == "__main__":
    main()
