from nnsight_lint.doors.cli import main

raise SystemExit(main())
