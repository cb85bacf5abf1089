"""Validation and analysis: exclusions, means, noise floors, blind cells, agreement, reports."""
