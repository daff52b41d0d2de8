import sys

from kiln.tools.cli import main

if __name__ == "__main__":  # not when multiprocessing imports it in kiln bench's workers
    sys.exit(main())
