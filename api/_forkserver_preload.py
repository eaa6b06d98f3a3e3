"""Imported by the scoring fork server only (``multiprocessing.set_forkserver_preload``): the
library is loaded and the gold caches warmed once, before scoring processes are forked."""

from .scorer import prepare_fork_server

prepare_fork_server()
