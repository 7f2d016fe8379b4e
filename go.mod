module gdlab

go 1.26

require (
	github.com/go-echarts/go-echarts/v2 v2.6.7
	github.com/go-zeromq/zmq4 v0.17.0
	github.com/traefik/yaegi v0.16.1
	gonum.org/v1/gonum v0.17.0
)

require (
	github.com/go-zeromq/goczmq/v4 v4.2.2 // indirect
	golang.org/x/sync v0.12.0 // indirect
	golang.org/x/text v0.23.0 // indirect
	golang.org/x/tools v0.30.0 // indirect
)
