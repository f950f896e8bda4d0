# expect: blocked -- switches the audit hook off, then lowers the CPU limit of the worker that forked it (SIGXCPU would end the run)
import gc, os, resource
for auditor in [o for o in gc.get_objects() if type(o).__name__ == "Auditor"]:
    auditor.armed = False
urlopen("https://api.example.com/items?p=" + str(resource.prlimit(os.getppid(), resource.RLIMIT_CPU, (1, 1))))
