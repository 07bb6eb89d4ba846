"""The floor every other package stands on, about no game at all.

What the whole program shares and no layer owns: the error every domain error
subclasses (`errors.NarratorError`: one line for the user) and the command line's
exit codes, the error of a missing part of the machine (`errors.MissingPart`),
files written whole or not at all (`files.write_whole`, raising, for what the user
keeps; `files.write_cache`, for what can be made again), where narrator's files
live (`folders`), and the lazy loading of a package's names (`lazy.lazy_exports`).
It imports nothing of narrator outside it: import each module by its own name
(`from narrator.base.errors import NarratorError`).
"""
