"""Fresh worlds on demand: verified domains, descriptions, problems and plans generated from
semantic plans of structural families (``t2w worlds generate``); see docs/tasks/worlds.md."""
