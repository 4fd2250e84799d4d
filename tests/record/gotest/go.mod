module example.com/hotpkg

go 1.19
