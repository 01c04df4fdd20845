module github.com/vg-crypto/vg/bench

go 1.26.0

replace github.com/vg-crypto/vg => ../

require (
	filippo.io/mldsa v1.0.0
	github.com/cloudflare/circl v1.6.5
)

require golang.org/x/sys v0.47.0 // indirect
