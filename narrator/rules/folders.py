"""Moved to `narrator.base.folders` (and the stamp to `narrator.rules.stamp`); this
name goes once every import points there."""

from narrator.base.folders import cache_dir as cache_dir
from narrator.base.folders import catalog_folders as catalog_folders
from narrator.base.folders import ruleset_files as ruleset_files
from narrator.base.folders import shipped_dir as shipped_dir
from narrator.base.folders import user_dir as user_dir
from narrator.rules.stamp import FORMAT as FORMAT
from narrator.rules.stamp import code_stamp as code_stamp
