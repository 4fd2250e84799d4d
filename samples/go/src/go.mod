module proftool-sample

go 1.19
