"""Judging: rubrics, providers, the response cache and the concurrent scoring runner."""
