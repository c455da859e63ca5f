"""The observation encoder: a battle as a combatant sees it, in vectors (encoding.py, its
per-creature columns in features.py, the buffers filled in C by _buffers.c or in Python by
buffers.py) and in English (text.py). Its own package under the agents, whose learned
policy and value read observations, and under the envs, which hand them out; it imports
neither."""
