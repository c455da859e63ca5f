"""The observation encoder: a battle as a combatant sees it, in vectors (encoding.py, its
per-creature columns in features.py, the buffers filled in C by _buffers.c or in Python by
buffers.py), in English (text.py), and what a combatant knows of enemies out of sight
(fog.py), by which the action mask is judged. Its own package under the agents, whose learned
policy and value read observations, and under the envs, which hand them out; it imports
neither."""
