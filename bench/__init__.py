"""`make bench`: run.py (entry point), common, data, server, measure, report (see README.md)."""
