# expect: runtime_error -- lifts its own memory and file-size limits (root's CAP_SYS_RESOURCE would allow it) before a bomb
import resource
for kind in (resource.RLIMIT_AS, resource.RLIMIT_FSIZE, resource.RLIMIT_NOFILE):
    resource.setrlimit(kind, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
urlopen("https://api.example.com/items?limits=lifted")
