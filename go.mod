module github.com/fairypost/fairypost

go 1.26
