# Sub-directories are not read.
this is not valid = PCL
