# expect: blocked -- signals its process group and the worker through a pidfd, swallowing every refusal
import os, signal
for attempt in (lambda: os.kill(0, signal.SIGKILL), lambda: os.killpg(os.getpgid(0), signal.SIGKILL),
                lambda: signal.pidfd_send_signal(os.pidfd_open(os.getppid()), signal.SIGKILL),
                lambda: os.kill(os.getppid(), signal.SIGSTOP)):
    try:
        attempt()
    except OSError:
        pass
urlopen("https://api.example.com/items?still=alive")
