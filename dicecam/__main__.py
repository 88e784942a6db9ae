from dicecam.cli import main

raise SystemExit(main())
