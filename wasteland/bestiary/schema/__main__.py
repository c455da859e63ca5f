"""``python -m wasteland.bestiary.schema``: regenerate (or --check) the JSON Schemas."""

from . import main

raise SystemExit(main())
