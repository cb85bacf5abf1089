"""Sample corpora written for this project."""
