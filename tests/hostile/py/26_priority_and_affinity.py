# expect: blocked -- re-prioritises and pins the worker and its process group to slow the run down
import errno, os
worker = os.getppid()
attempts = [lambda: os.setpriority(os.PRIO_PROCESS, worker, 19), lambda: os.setpriority(os.PRIO_PGRP, 0, 19),
            lambda: os.sched_setaffinity(worker, {0}), lambda: os.sched_setaffinity(0, {0}),
            lambda: os.sched_setscheduler(worker, os.SCHED_IDLE, os.sched_param(0))]
errors = []
for attempt in attempts:
    try:
        attempt()
    except OSError as exc:
        errors.append(exc)
refused = [exc for exc in errors if exc.errno == errno.ENOTRECOVERABLE]
if len(refused) == len(attempts):
    raise refused[0]
urlopen("https://api.example.com/items?reniced=" + ",".join(str(exc.errno) for exc in errors))
