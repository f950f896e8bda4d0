"""``python -m fake_openai`` (with ``tests/`` on the path): serve the fake server, or answer a batch file."""

from .server import main

main()
