import sys

from cardhall.cli import main

sys.exit(main())
