# expect: runtime_error -- leaves a thread, an alarm and a signal handler behind to sabotage later programs
import os, signal, threading, time, urllib.request
threading.Thread(target=lambda: (time.sleep(0.3), setattr(urllib.request, "Request", None)), daemon=True).start()
signal.signal(signal.SIGALRM, lambda *a: os._exit(9))
signal.alarm(1)
os.environ["HTTP_PROXY"] = "http://127.0.0.1:__CANARY_PORT__"
os.chdir("/")
raise RuntimeError("left state behind")
