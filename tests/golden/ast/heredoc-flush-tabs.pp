tabs = <<-EOT
		two tabs
	one tab
			three tabs
	EOT
mixed = <<-EOT
	  tab and two spaces
  	  two spaces, tab, two spaces
   three spaces
EOT
plain-tabs = <<EOT
	kept
EOT
