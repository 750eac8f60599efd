# readDir lists a directory's entries sorted by name; mimeType gives the
# media type of a path's extension (docs/functions.md).
output entries {
  value = readDir("tests/data/archive")
}
output types {
  value = [mimeType("index.html"), mimeType("logo.PNG"), mimeType("notes.txt"),
    mimeType("a.b/README"), mimeType("data.unknownext")]
}
output missing {
  value = try(readDir("tests/data/missing"), "no such directory")
}
