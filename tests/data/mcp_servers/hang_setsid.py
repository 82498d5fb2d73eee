"""A server that never answers and starts a grandchild in a session of its own (setsid), out of its process
group: cleanup must still stop it.

argv[1]: a file to write "<server pid> <grandchild pid>" to.
"""

import os
import subprocess
import sys
import time
from pathlib import Path

child = subprocess.Popen(
    [sys.executable, "-c", "import time; time.sleep(600)"], start_new_session=True, stdin=subprocess.DEVNULL
)
Path(sys.argv[1]).write_text(f"{os.getpid()} {child.pid}")
while True:
    time.sleep(1)
