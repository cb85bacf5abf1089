"""Grounding: frozen corpus snapshots, the code index, claim extraction and verification."""
