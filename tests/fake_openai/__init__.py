"""A fake OpenAI-compatible server for the tests and benchmarks of the ``openai`` backend.

Test support, not part of any installed package: the tests import it as ``fake_openai`` (pytest puts
``tests/`` on the path), benchmarks after putting ``tests/`` on ``sys.path``. :mod:`.server` serves
the completions, chat and models endpoints on 127.0.0.1 with scripted answers and injected faults;
:mod:`.batches` adds OpenAI's Batch API. From a checkout's root,
``PYTHONPATH=tests python -m fake_openai --port 8000`` serves it until interrupted.
"""

from .batches import BatchBehaviour, BatchService
from .server import ApiCall, Fault, OpenAIServer, Reply, default_responder, run_batch

__all__ = ["ApiCall", "BatchBehaviour", "BatchService", "Fault", "OpenAIServer", "Reply", "default_responder",
           "run_batch"]
