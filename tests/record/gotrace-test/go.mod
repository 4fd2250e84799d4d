module example.com/blockpkg

go 1.19
