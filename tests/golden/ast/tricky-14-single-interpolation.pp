# "${x}" is x itself (a single interpolation); "${x} " is a string.
wrapped = "${x}"
string = "${x} "
