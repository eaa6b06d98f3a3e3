"""Imported by the scoring fork server only (``multiprocessing.set_forkserver_preload``): the
library is loaded and the gold caches warmed once, before scoring processes are forked."""

from text2world.service.scorer import prepare_fork_server

prepare_fork_server()
