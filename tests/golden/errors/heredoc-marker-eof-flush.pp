a = <<-EOT
  text
  EOT  