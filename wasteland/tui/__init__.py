"""The full-screen terminal game (Textual): what `wasteland play` shows a person at a
terminal. Piped input and --plain keep the line game of wasteland.cli.play."""
