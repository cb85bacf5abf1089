"""Shape-preserving renaming of corpora and question sets, with structural-equivalence checks."""
