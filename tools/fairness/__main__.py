from tools.fairness.cli import main

raise SystemExit(main())
