"""A server that dies on start, as a misconfigured one does."""

import sys

print("fatal: DATABASE_URL is not set", file=sys.stderr)
sys.exit(3)
