from loo_sim.cli import exit_now, main

exit_now(main())
