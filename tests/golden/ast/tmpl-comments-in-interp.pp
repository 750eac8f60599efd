# Comments are ordinary expression context inside ${ } and %{ }.
block = "${x /* a comment */}"
line = "${x # to the end of the line
}"
slashes = "${x // to the end of the line
} tail"
directive = "%{if c /* why */}y%{endif}"
not-a-comment = "# not a comment // nor this /* nor this */"
