value = {for x in xs : x => upper(x)}
key-value = {for k, v in m : k => v}
grouping = {for k, v in m : v => k...}
filter = {for k, v in m : k => v if v != null}
grouping-filter = {for k, v in m : v => k... if k != ""}
computed-key = {for x in xs : "key-${x}" => x}
object-value = {for x in xs : x.name => { id = x.id, tags = x.tags }}
