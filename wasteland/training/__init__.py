"""Training and evaluating policies (heavy imports stay inside the functions)."""
