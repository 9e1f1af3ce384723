"""Crowd payments: completion codes, bonus files and the record of bonuses paid (services), and the payments page."""
