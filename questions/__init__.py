"""Question sets (JSONL) and their loader."""
