"""Crowd campaigns (docs/crowd.md): `campaigns` writes campaigns and counts their progress, `services` holds the crowd
platforms' ids, the join link and the way back with a completion code, `views` the campaign pages and the links."""
