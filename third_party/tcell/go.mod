module github.com/gdamore/tcell/v2

go 1.24.0

require (
	github.com/gdamore/encoding v1.0.1
	github.com/lucasb-eyer/go-colorful v1.3.0
	github.com/rivo/uniseg v0.4.7
	golang.org/x/sys v0.38.0
	golang.org/x/term v0.37.0
	golang.org/x/text v0.31.0
)

require (
	github.com/mattn/go-sixel v0.0.5 // indirect
	github.com/soniakeys/quant v1.0.0 // indirect
)
