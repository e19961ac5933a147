"""``python -m paifu``: the command line."""

import sys

from paifu.cli import main

sys.exit(main())
