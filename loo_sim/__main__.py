import sys

from loo_sim.cli import main

sys.exit(main())
