x = invoke("unknownpkg:index:f", {}, {}, 4)
