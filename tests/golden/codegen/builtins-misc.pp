# Built-ins over files, assets and archives, the stack, and resources.
resource r "simple:index:Resource" {
  value = true
}
output misc {
  value = {
    readFile   = readFile("tests/golden/codegen/data.txt")
    filebase64 = filebase64("tests/golden/codegen/data.txt")
    sha256     = filebase64sha256("tests/golden/codegen/data.txt")
    stack      = stack()
    project    = project()
    org        = organization()
    hasCwd     = length(cwd()) > 0
    hasRoot    = length(rootDirectory()) > 0
    type       = pulumiResourceType(r)
    name       = pulumiResourceName(r)
    toJSON     = toJSON([stringAsset("x") == null, 1])
  }
}
resource assets "simple:index:Resource" {
  text    = stringAsset("hello")
  file    = fileAsset("tests/golden/codegen/data.txt")
  remote  = remoteAsset("https://example.com/a.txt")
  archive = assetArchive({ "a.txt" = stringAsset("a"), "dir" = fileArchive("tests/data/archive") })
  remoteArchive = remoteArchive("https://example.com/a.tgz")
}
output caught {
  value = try(notImplemented("not yet"), "caught")
}
