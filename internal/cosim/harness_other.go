//go:build !amd64

package cosim

// cases is empty where there is no harness.
var cases []Case
