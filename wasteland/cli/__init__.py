"""The `wasteland` command."""
