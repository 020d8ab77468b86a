"""`python -m api.cli`: the `spotter` command."""

from api.cli import main

raise SystemExit(main())
