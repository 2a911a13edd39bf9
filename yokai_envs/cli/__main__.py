"""``python -m yokai_envs.cli ...`` runs the ``yokai`` command."""

from yokai_envs.cli import main

raise SystemExit(main())
