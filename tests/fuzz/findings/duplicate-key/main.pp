# A for expression that makes an object with the same key twice, without the
# grouping `...`, is an error (HCL: "Duplicate object key"); pclc keeps the
# last value instead.
output caught { value = can({ for x in ["a", "a"] : x => 1 }) }
output fellBack { value = try({ for x in ["a", "b", "a"] : x => x }, "fallback") }
