"""Rubric data files and their loader."""
