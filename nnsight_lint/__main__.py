from nnsight_lint.cli import main

raise SystemExit(main())
