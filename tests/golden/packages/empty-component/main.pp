// A component directory without .pp files is reported where it is named.
component "x" "./c" {}
