module github.com/nikolalohinski/gonja

go 1.24
