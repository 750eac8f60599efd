# A call whose name is also a top-level name creates a dependency on it
# (program.md §10.4 call quirk).
length = "shadowing name"
n = length([1, 2])
