module gdlab

go 1.26
