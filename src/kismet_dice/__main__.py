"""``python -m kismet_dice``: the ``kismet`` command, for where its script is not on the path."""

import sys

from kismet_dice.cli import main

sys.exit(main())
