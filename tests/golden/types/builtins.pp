# Every builtin function.
config ls "list(string)" {
}

config ms "map(string)" {
}

config s "string" {
}

elem = element(ls, 1)
allEntries = entries(ms)
lengthList = length(ls)
lengthString = length(s)
lookupWithDefault = lookup(ms, "k", "default")
lookupTwoArguments = lookup(ms, "k")
lookupOtherDefault = lookup({ a = 1 }, "c", true)
joined = join("-", ls)
parts = split(",", s)
numbers = range(5)
minimum = min(1, 2, 3)
maximum = max(1, 2.5)
json = toJSON({ a = 1 })
encoded = toBase64(s)
decoded = fromBase64(encoded)
hash = sha1(s)
file = readFile("data.txt")
fileB64 = filebase64("data.txt")
fileSha = filebase64sha256("data.txt")
asset = fileAsset("data.txt")
text = stringAsset("hello")
remote = remoteAsset("https://example.com/a")
archive = fileArchive("dir")
remoteZip = remoteArchive("https://example.com/a.zip")
assets = assetArchive({ a = asset, b = archive })
hidden = secret(s)
shown = unsecret(hidden)
single = singleOrNone([1])
tried = try(1, 2, 3)
canned = can(ms.k)
todo = notImplemented("later")
stackName = stack()
projectName = project()
orgName = organization()
dir = cwd()
root = rootDirectory()
converted = convert("42", int)
convertedList = convert(["a"], list(string))
existsPlain = resourceExists("simple:index:Resource", s)
existsWithState = resourceExists("simple:index:Resource", s, { value = true })
