a = <<EOT
${var.x}
%{if true}y%{endif}
EOT
