# A name a small edit away from a known one gets "did you mean": a variable
# (the note points at its declaration), a for variable, a built-in function,
# a resource's attribute, a resource type, a property of an object value or
# of a typed config, a property of a hook; far names and one-letter names get
# none.
bucketName = "logs"
first = bucketNmae
second = [for item in [1, 2] : itme]
third = lenght([1])
fourth = totallyDifferent
fifth = q

resource res "simple:index:Resource" {
  vaule = true
}

resource other "simple:index:Resourse" {
  value = true
}

settings = { bucket = "a", region = "b" }
sixth = settings.buckt
seventh = settings.colour

config cfg "object({name=string})" {}
eighth = cfg.nmae

hook resource "notify" {
  command = ["echo"]
  onDryRn = true
}
