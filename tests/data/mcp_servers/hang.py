"""A server that never answers, ignores SIGTERM and has a child of its own: cleanup must still kill both.

argv[1]: a file to write "<server pid> <child pid>" to, so the test can check that neither survives.
"""

import signal
import subprocess
import sys
import time
from pathlib import Path

signal.signal(signal.SIGTERM, signal.SIG_IGN)
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
Path(sys.argv[1]).write_text(f"{__import__('os').getpid()} {child.pid}")
while True:
    time.sleep(1)
