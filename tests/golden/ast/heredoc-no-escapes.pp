# Backslash escapes are not processed in heredocs; $${ and %%{ are.
backslashes = <<EOT
a\nb\t\"c\\ \u00e9
EOT
escapes = <<EOT
$${not interpolated} %%{not a directive}
$5 100% $$ %%
EOT
quotes = <<EOT
"quoted" and 'single'
EOT
