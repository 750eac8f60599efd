// A call's final argument expanded from a list (f(xs...)) stands for the
// arguments of the built-ins the runtime calls by name; the special forms,
// secret, unsecret, getOutput and the values of the run take theirs as
// written, so expanding into them is an error at the expanded argument.
secret1   = secret(["a"]...)
unsecret1 = unsecret([secret1]...)
try1      = try(["a", "b"]...)
can1      = can([1]...)
recover1  = recover(1, [2]...)
stack1    = stack([]...)
cwd1      = cwd([]...)
convert1  = convert(1, int...)
getOut1   = getOutput([]...)

// These expand.
max1  = max([1, 2]...)
join1 = join(",", [["a", "b"]]...)
range1 = range([1, 3]...)
