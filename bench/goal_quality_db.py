"""A hotel-chain database of eight tables for measuring generated goals on a schema nobody tuned the sampler to
(bench/goal_quality.py). Different from the demo databases (dormitory, library, flights): two link tables
(booking_service, room_amenity), codes stored as text and as numbers (country_code, channel_code, zip_code,
loyalty_no), floors, years, genders, unique names, and tables of very different sizes (8 hotels, ~1,000 bookings).

Usage: .venv/bin/python bench/goal_quality_db.py OUT.sqlite [--seed 35]
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
    connection.commit()
    connection.close()
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("--seed", type=int, default=35)
    options = parser.parse_args()
    build_hotel_database(options.out, options.seed)
    print(options.out)


if __name__ == "__main__":
    main()
