module example.com/pprofserver

go 1.19
