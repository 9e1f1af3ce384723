"""Translation projects (docs/translation.md): an imported SParC or CoSQL release turned into another language with
its databases, as CHASE-T was made (CHASE §3.3), and exported as a CHASE-format release.

`models`: the project, its databases (with the people assigned to each), the units translated once per database
(table and column names, distinct text values), the interactions and the export job. `source`: the imported releases
a project can be made from, read as plain interactions. `maps`: a database's name and value maps from its units.
`services`: every write (a project made, a unit translated or proposed by a model, an interaction translated and
reviewed, an export asked for). `selectors`: progress per database and per person. `sqlite_copy`: a translated
SQLite file built from the original. `export`: the export job and its gold check. The SQL rewriting itself knows no
model: `annotation.sql.translate`.
"""
