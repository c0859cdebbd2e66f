"""``python -m analysis <scenario> [--results DIR]``: same as ``python -m analysis.report``."""

import sys

from .report import main

sys.exit(main())
