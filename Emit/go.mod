module github.com/vg-crypto/vg/Emit

go 1.26.0

replace github.com/vg-crypto/vg => ../

require (
	github.com/mmcloughlin/avo v0.5.0
	github.com/vg-crypto/vg v0.0.0-00010101000000-000000000000
	golang.org/x/sys v0.50.0
)

require (
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/tools v0.52.0 // indirect
)
