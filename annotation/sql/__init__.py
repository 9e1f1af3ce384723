"""The SQL core: pure logic on SQL text and SQLite files, knowing no model: the sandbox, the Spider encoding and
hardness, static checks, schema reading, result comparison and the official scores of one query pair.
"""
