"""Datasets: exports (services, built by a Celery task), imports of released datasets (importer), the pages that
request them and show the statistics (views, forms, selectors), and the formats underneath: replaying dialogues into
turns, writing and reading the releases' files, splits, and the statistics a dataset paper reports. The SQL they
re-check is the SQL core's (annotation.sql.check).
"""
