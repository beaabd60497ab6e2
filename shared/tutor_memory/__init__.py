"""Tutor Memory: a long-term memory of one student in one subject for an AI tutor."""
