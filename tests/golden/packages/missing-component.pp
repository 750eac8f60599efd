component "gone" "./nowhere" {}
