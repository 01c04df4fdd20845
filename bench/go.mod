module github.com/vg-crypto/vg/bench

go 1.26.0

replace github.com/vg-crypto/vg => ../

require (
	filippo.io/mldsa v1.0.0
	github.com/cloudflare/circl v1.6.5
	github.com/vg-crypto/vg v0.0.0-00010101000000-000000000000
)

require golang.org/x/sys v0.50.0
